//! A trained matrix kept as the file stores it (quantized blocks), de-quantized a row at a time
//! where it is used: the model stays the size of its file, and every number it computes with is
//! the float32 gguf-py gives, widened to float64. Every matrix reads its blocks from the one copy
//! of the file's bytes, which the decoder shares.

use std::ops::Range;
use std::sync::Arc;

use nalgebra::DMatrix;

use kernels::Rows;

use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;

use super::gguf::Kind;

/// `rows` × `cols` numbers, row after row, as `kind`.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    kind: Kind,
    rows: usize,
    cols: usize,
    file: Arc<Vec<u8>>,
    /// Where its blocks are in the file.
    at: Range<usize>,
    /// The file's row each row is (transformers' order of a query or key matrix differs from
    /// llama.cpp's: see [`Stored::rows_from`]).
    order: Option<Vec<usize>>,
}

impl Stored {
    /// A matrix of `rows` rows of `cols` numbers, the bytes `at` of `file`; they must be its
    /// size.
    pub fn new(
        kind: Kind,
        (rows, cols): (usize, usize),
        file: Arc<Vec<u8>>,
        at: Range<usize>,
    ) -> Result<Stored, Msg> {
        let row_bytes = kind
            .bytes(cols)
            .ok_or_else(|| models::row_blocks(cols, format!("{kind:?}")))?;
        if at.len() != row_bytes * rows || at.end > file.len() {
            return Err(models::bytes_for(at.len(), rows, cols, format!("{kind:?}")));
        }
        Ok(Stored {
            kind,
            rows,
            cols,
            file,
            at,
            order: None,
        })
    }

    /// The same matrix with its rows read in another order: row `r` is the file's `from(r)`.
    pub fn rows_from(mut self, from: impl Fn(usize) -> usize) -> Stored {
        self.order = Some((0..self.rows).map(from).collect());
        self
    }

    /// Rows and columns.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The matrix as the kernels read it.
    fn rows(&self) -> Rows<'_> {
        Rows {
            kind: self.kind,
            rows: self.rows,
            cols: self.cols,
            bytes: &self.file[self.at.clone()],
            order: self.order.as_deref(),
        }
    }

    /// Row `r`'s numbers, de-quantized, into `out` (`cols` long).
    pub fn row_into(&self, r: usize, out: &mut [f64]) {
        self.rows().row_into(r, out);
    }

    /// Row `r`.
    pub fn row(&self, r: usize) -> Vec<f64> {
        let mut out = vec![0.0; self.cols];
        self.row_into(r, &mut out);
        out
    }

    /// `x · selfᵀ` for `x` of n rows of `cols` numbers: each token's row through the layer,
    /// a row of the matrix de-quantized at a time, never the whole of it as float64.
    pub fn apply(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        assert_eq!(x.ncols(), self.cols, "a linear layer's input width");
        // Token rows as contiguous slices (nalgebra stores columns).
        let tokens = x.transpose();
        let mut out = vec![0.0; x.nrows() * self.rows];
        self.rows()
            .times_tokens(tokens.as_slice(), x.nrows(), &mut out);
        DMatrix::from_vec(x.nrows(), self.rows, out)
    }
}
