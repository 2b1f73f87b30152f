//! A GGUF file (version 2 or 3, little-endian, as llama.cpp writes it): its metadata and its
//! tensor table, and a tensor's numbers de-quantized exactly as gguf-py does (F32, F16, Q8_0,
//! Q4_1: float16 scales widened to float32, the product in float32; the `kernels` crate's loops).
//! Anything else is refused by name. Written by hand: the format is a header of five kinds of value, and the crates that read
//! it bring file I/O or a tensor library the page does not need.

pub use kernels::{dequantize_into, Kind};

use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;

/// A metadata value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Any of the integer types, widened.
    Int(i64),
    /// `float32` or `float64`, widened.
    Float(f64),
    /// `bool`.
    Bool(bool),
    /// A UTF-8 string.
    Text(String),
    /// An array of one type.
    List(Vec<Value>),
}

impl Value {
    /// The number, if it is an integer of at least 0.
    pub fn as_usize(&self) -> Option<usize> {
        match self {
            Value::Int(n) => usize::try_from(*n).ok(),
            _ => None,
        }
    }
}

/// GGML's type number, or (naming `tensor`) the type's name when it is not read here.
fn kind_of(tensor: &str, code: u32) -> Result<Kind, Msg> {
    Ok(match code {
        0 => Kind::F32,
        1 => Kind::F16,
        3 => Kind::Q4_1,
        8 => Kind::Q8_0,
        other => {
            let name = match other {
                2 => "Q4_0",
                6 => "Q5_0",
                7 => "Q5_1",
                9 => "Q8_1",
                10 => "Q2_K",
                11 => "Q3_K",
                12 => "Q4_K",
                13 => "Q5_K",
                14 => "Q6_K",
                15 => "Q8_K",
                30 => "BF16",
                _ => "",
            };
            return Err(if name.is_empty() {
                models::ggml_code(tensor, other)
            } else {
                models::ggml_kind(tensor, name)
            });
        }
    })
}

/// One entry of the tensor table.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorInfo {
    /// Its name (`blk.3.attn_q.weight`).
    pub name: String,
    /// Its dimensions as GGUF gives them: the fastest-varying first (a matrix of `rows` rows of
    /// `cols` numbers is `[cols, rows]`).
    pub dims: Vec<usize>,
    /// How its numbers are stored.
    pub kind: Kind,
    /// Where its bytes start, from the start of the file.
    pub start: usize,
    /// How many bytes.
    pub len: usize,
}

impl TensorInfo {
    /// How many numbers.
    pub fn count(&self) -> usize {
        self.dims.iter().product()
    }
}

/// A file's header: its metadata and its tensor table (the bytes stay with the caller).
#[derive(Clone, Debug, PartialEq)]
pub struct Gguf {
    /// The key/value pairs, in file order.
    pub metadata: Vec<(String, Value)>,
    /// The tensors, in file order.
    pub tensors: Vec<TensorInfo>,
}

/// Most metadata entries and tensors a header may announce: far beyond a real model's, so a
/// damaged count is refused before it allocates.
const MAX_ENTRIES: u64 = 1 << 20;

/// Reads a header from the front of `bytes`.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Msg> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(models::header_cut(self.bytes.len()));
        };
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }
    fn u32(&mut self) -> Result<u32, Msg> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, Msg> {
        let b = self.take(8)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    /// A count of things, `too_many` saying which when the file cannot hold them.
    fn count(&mut self, too_many: fn(u64) -> Msg) -> Result<usize, Msg> {
        let n = self.u64()?;
        if n > MAX_ENTRIES || n as usize > self.bytes.len() {
            return Err(too_many(n));
        }
        Ok(n as usize)
    }
    fn text(&mut self) -> Result<String, Msg> {
        let n = self.count(models::announces_text)?;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| models::text_not_utf8.into())
    }
    fn value(&mut self, kind: u32, depth: usize) -> Result<Value, Msg> {
        let int = |b: &[u8]| -> i64 {
            let mut a = [0; 8];
            a[..b.len()].copy_from_slice(b);
            i64::from_le_bytes(a)
        };
        Ok(match kind {
            0 => Value::Int(i64::from(self.take(1)?[0])),
            1 => Value::Int(i64::from(self.take(1)?[0] as i8)),
            2 => Value::Int(int(self.take(2)?)),
            3 => Value::Int(i64::from(i16::from_le_bytes(
                self.take(2)?.try_into().unwrap_or_default(),
            ))),
            4 => Value::Int(i64::from(self.u32()?)),
            5 => Value::Int(i64::from(self.u32()? as i32)),
            6 => Value::Float(f64::from(f32::from_bits(self.u32()?))),
            7 => Value::Bool(self.take(1)?[0] != 0),
            8 => Value::Text(self.text()?),
            9 if depth == 0 => {
                let inner = self.u32()?;
                let n = self.count(models::announces_items)?;
                let mut items = Vec::with_capacity(n.min(1 << 16));
                for _ in 0..n {
                    items.push(self.value(inner, depth + 1)?);
                }
                Value::List(items)
            }
            10 | 11 => Value::Int(self.u64()? as i64),
            12 => Value::Float(f64::from_bits(self.u64()?)),
            other => return Err(models::unknown_value(other)),
        })
    }
}

impl Gguf {
    /// The header of a GGUF file (version 2 or 3) held in `bytes`, each tensor's bytes checked
    /// to lie inside it.
    pub fn read(bytes: &[u8]) -> Result<Gguf, Msg> {
        if bytes.get(..4) != Some(b"GGUF") {
            return Err(models::not_gguf.into());
        }
        let mut r = Reader { bytes, at: 4 };
        let version = r.u32()?;
        if !(2..=3).contains(&version) {
            return Err(models::gguf_version(version));
        }
        let tensor_count = r.count(models::announces_tensors)?;
        let metadata_count = r.count(models::announces_entries)?;
        let mut metadata = Vec::with_capacity(metadata_count);
        for _ in 0..metadata_count {
            let key = r.text()?;
            let kind = r.u32()?;
            let value = r.value(kind, 0).map_err(|e| models::at(&key, e))?;
            metadata.push((key, value));
        }
        let mut table = Vec::with_capacity(tensor_count);
        for _ in 0..tensor_count {
            let name = r.text()?;
            let n_dims = r.u32()?;
            if n_dims == 0 || n_dims > 4 {
                return Err(models::dimensions(name, n_dims));
            }
            let dims = (0..n_dims)
                .map(|_| r.count(models::announces_numbers))
                .collect::<Result<Vec<_>, _>>()?;
            let kind = kind_of(&name, r.u32()?)?;
            let offset = r.u64()?;
            table.push((name, dims, kind, offset));
        }
        let alignment = match metadata.iter().find(|(k, _)| k == "general.alignment") {
            Some((_, v)) => v
                .as_usize()
                .filter(|a| a.is_power_of_two())
                .ok_or(models::alignment)?,
            None => 32,
        };
        let data = r.at.div_ceil(alignment) * alignment;
        let mut tensors = Vec::with_capacity(table.len());
        for (name, dims, kind, offset) in table {
            let count = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
            let len = count.and_then(|n| kind.bytes(n)).ok_or_else(|| {
                models::not_whole_blocks(&name, format!("{dims:?}"), format!("{kind:?}"))
            })?;
            let start = usize::try_from(offset)
                .ok()
                .and_then(|o| data.checked_add(o))
                .filter(|s| s.checked_add(len).is_some_and(|e| e <= bytes.len()))
                .ok_or_else(|| models::past_the_end(&name, bytes.len()))?;
            tensors.push(TensorInfo {
                name,
                dims,
                kind,
                start,
                len,
            });
        }
        Ok(Gguf { metadata, tensors })
    }

    /// A metadata value.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A tensor's entry.
    pub fn tensor(&self, name: &str) -> Result<&TensorInfo, Msg> {
        self.tensors
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| models::no_gguf_tensor(name))
    }
}

/// A tensor's numbers de-quantized, in the file's order (row after row of a matrix).
pub fn dequantize(kind: Kind, bytes: &[u8]) -> Vec<f64> {
    let (per, size) = kind.block();
    let mut out = vec![0.0; bytes.len() / size * per];
    dequantize_into(kind, bytes, &mut out);
    out
}
