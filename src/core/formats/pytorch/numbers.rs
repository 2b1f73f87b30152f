//! Where "Copy as PyTorch" puts the model's numbers: into the script as literals Python reads
//! back exactly, or, past [`MOST_WRITTEN_NUMBERS`], into a safetensors file of float64 it loads.

use nalgebra::DMatrix;

/// A float as Python reads it back exactly (`0.5`, `-0.0`, `1e-7`, `1e16`).
pub(super) fn float(x: f64) -> String {
    // Rust's Debug form is the shortest round-trip one, with an exponent where that is shorter;
    // Python parses every such literal to the same double.
    format!("{x:?}")
}

/// A matrix as a `torch.tensor` literal in float64, one row per line; `grad` asks autograd to
/// follow it.
fn tensor(m: &DMatrix<f64>, indent: &str, grad: bool) -> String {
    let rows: Vec<String> = m
        .row_iter()
        .map(|r| {
            let cells: Vec<String> = r.iter().map(|&x| float(x)).collect();
            format!("{indent}    [{}],", cells.join(", "))
        })
        .collect();
    format!(
        "torch.tensor([\n{}\n{indent}], dtype=torch.float64{})",
        rows.join("\n"),
        if grad { ", requires_grad=True" } else { "" }
    )
}

/// A one-row matrix (a bias) as a 1-D `torch.tensor` literal in float64.
fn vector(m: &DMatrix<f64>, grad: bool) -> String {
    let cells: Vec<String> = m.iter().map(|&x| float(x)).collect();
    format!(
        "torch.tensor([{}], dtype=torch.float64{})",
        cells.join(", "),
        if grad { ", requires_grad=True" } else { "" }
    )
}

/// Past this many numbers the script loads them from a file (a trained layer's would be 11 MB of
/// text; the tutorial's largest sizes stay readable).
pub(super) const MOST_WRITTEN_NUMBERS: usize = 20_000;

/// The file a large model's numbers are saved in, beside the script.
pub const NUMBERS_FILE: &str = "attention-numbers.safetensors";

/// A tensor of the file: its name, shape and float64 data (little-endian, row by row).
type Tensor = (String, Vec<usize>, Vec<u8>);

/// Where each matrix goes: into the script as a literal, or into the file under a name.
pub(super) struct Numbers {
    pub(super) file: Option<Vec<Tensor>>,
}

impl Numbers {
    /// `m` as a 2-D tensor (a 1-D one if `flat`), requiring grad if `grad`.
    fn put(
        &mut self,
        name: &str,
        m: &DMatrix<f64>,
        indent: &str,
        grad: bool,
        flat: bool,
    ) -> String {
        let Some(file) = &mut self.file else {
            return if flat {
                vector(m, grad)
            } else {
                tensor(m, indent, grad)
            };
        };
        let shape = if flat {
            vec![m.len()]
        } else {
            vec![m.nrows(), m.ncols()]
        };
        // Row by row, as torch reads it (nalgebra keeps columns).
        let bytes = m.transpose().iter().flat_map(|x| x.to_le_bytes()).collect();
        file.push((name.to_owned(), shape, bytes));
        format!(
            "numbers[\"{name}\"]{}",
            if grad { ".requires_grad_()" } else { "" }
        )
    }

    pub(super) fn matrix(
        &mut self,
        name: &str,
        m: &DMatrix<f64>,
        indent: &str,
        grad: bool,
    ) -> String {
        self.put(name, m, indent, grad, false)
    }

    pub(super) fn vector(&mut self, name: &str, m: &DMatrix<f64>, grad: bool) -> String {
        self.put(name, m, "", grad, true)
    }

    /// The file's bytes, if the numbers went to one: safetensors' layout, written here (the
    /// crate's writer would add 8 KB to this chunk for a header of a few lines): the header's
    /// length (8 bytes, little-endian), the header (JSON, padded with spaces to 8 bytes), the
    /// data.
    pub(super) fn into_file(self) -> Option<Vec<u8>> {
        let tensors = self.file?;
        // The names are the script's (`w_query.0`): nothing in them needs escaping.
        let mut entries = Vec::with_capacity(tensors.len());
        let mut offset = 0;
        for (name, shape, bytes) in &tensors {
            let end = offset + bytes.len();
            let shape: Vec<String> = shape.iter().map(ToString::to_string).collect();
            entries.push(format!(
                r#""{name}":{{"dtype":"F64","shape":[{}],"data_offsets":[{offset},{end}]}}"#,
                shape.join(",")
            ));
            offset = end;
        }
        let mut header = format!("{{{}}}", entries.join(","));
        header.extend(std::iter::repeat_n(
            ' ',
            header.len().next_multiple_of(8) - header.len(),
        ));
        let mut file = Vec::with_capacity(8 + header.len() + offset);
        file.extend((header.len() as u64).to_le_bytes());
        file.extend(header.as_bytes());
        for (_, _, bytes) in &tensors {
            file.extend(bytes);
        }
        Some(file)
    }
}
