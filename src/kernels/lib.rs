//! The language model's hot loops, a crate of their own so that they are built for speed
//! (`opt-level = 3`, the workspace's `Cargo.toml`) while the page is built for size: measured
//! natively, SmolLM2's token costs 2.7× less time than at `opt-level = "z"`. Nothing here is
//! generic, so that each function is compiled in this crate, with its settings.
//!
//! Every number is de-quantized exactly as gguf-py does (float16 scales widened to float32, the
//! product and the sum in float32), then widened to float64.

use half::f16;

/// How a tensor's numbers are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 4-byte floats.
    F32,
    /// 2-byte floats.
    F16,
    /// Blocks of 32: a float16 scale `d`, 32 signed bytes `q`; `d·q`.
    Q8_0,
    /// Blocks of 32: float16 `d` and `m`, 16 bytes of two 4-bit `q` each; `d·q + m`.
    Q4_1,
}

impl Kind {
    /// Numbers per block and bytes per block.
    pub fn block(self) -> (usize, usize) {
        match self {
            Kind::F32 => (1, 4),
            Kind::F16 => (1, 2),
            Kind::Q8_0 => (32, 34),
            Kind::Q4_1 => (32, 20),
        }
    }

    /// The bytes `n` numbers take (`n` a whole number of blocks).
    pub fn bytes(self, n: usize) -> Option<usize> {
        let (per, bytes) = self.block();
        n.is_multiple_of(per).then(|| n / per * bytes)
    }
}

/// The numbers of `bytes` stored as `kind` into `out` (as many as they hold), block by block
/// with no allocation: a matrix row is read this way for every use.
pub fn dequantize_into(kind: Kind, bytes: &[u8], out: &mut [f64]) {
    let half = |b: &[u8]| f16::from_le_bytes([b[0], b[1]]).to_f32();
    match kind {
        Kind::F32 => {
            for (o, b) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                *o = f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            }
        }
        Kind::F16 => {
            for (o, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
                *o = f64::from(half(b));
            }
        }
        Kind::Q8_0 => {
            for (o, block) in out.chunks_exact_mut(32).zip(bytes.chunks_exact(34)) {
                let d = half(block);
                for (o, &q) in o.iter_mut().zip(&block[2..]) {
                    *o = f64::from(d * f32::from(q as i8));
                }
            }
        }
        Kind::Q4_1 => {
            // A block's 32 numbers take 16 values: each computed once (the same float32
            // arithmetic), then looked up: a token of the language model 1.3× quicker.
            let mut values = [0.0; 16];
            for (o, block) in out.chunks_exact_mut(32).zip(bytes.chunks_exact(20)) {
                let (d, m) = (half(block), half(&block[2..]));
                for (q, v) in values.iter_mut().enumerate() {
                    *v = f64::from(d * q as f32 + m);
                }
                let (low, high) = o.split_at_mut(16);
                for ((l, h), &q) in low.iter_mut().zip(high).zip(&block[4..]) {
                    *l = values[usize::from(q & 0x0F)];
                    *h = values[usize::from(q >> 4)];
                }
            }
        }
    }
}

/// A stored matrix: `rows` rows of `cols` numbers as `kind`, row after row in `bytes`; row `r`
/// is the stored row `order[r]` when an order is given.
#[derive(Clone, Copy)]
pub struct Rows<'a> {
    pub kind: Kind,
    pub rows: usize,
    pub cols: usize,
    pub bytes: &'a [u8],
    pub order: Option<&'a [usize]>,
}

impl Rows<'_> {
    /// Row `r`, de-quantized into `out` (`cols` long).
    pub fn row_into(&self, r: usize, out: &mut [f64]) {
        let r = self.order.map_or(r, |o| o[r]);
        let len = self.bytes.len() / self.rows;
        dequantize_into(self.kind, &self.bytes[r * len..(r + 1) * len], out);
    }

    /// `x · selfᵀ` for `n` token rows of `cols` numbers in `x` (row after row): token `t`'s
    /// number `r` goes to `out[r·n + t]` (a column per matrix row, as nalgebra stores an n × rows
    /// matrix). Each matrix row is de-quantized once for all the tokens.
    pub fn times_tokens(&self, x: &[f64], n: usize, out: &mut [f64]) {
        assert_eq!(x.len(), n * self.cols, "a linear layer's input width");
        assert_eq!(out.len(), n * self.rows, "a linear layer's output size");
        let mut row = vec![0.0; self.cols];
        for (r, column) in out.chunks_exact_mut(n.max(1)).enumerate().take(self.rows) {
            self.row_into(r, &mut row);
            for (o, token) in column.iter_mut().zip(x.chunks_exact(self.cols)) {
                *o = dot(&row, token);
            }
        }
    }
}

/// `a · b` with four running sums, which the processor adds side by side.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut sums = [0.0; 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f64 = a4
        .remainder()
        .iter()
        .zip(b4.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a4.zip(b4) {
        for k in 0..4 {
            sums[k] += x[k] * y[k];
        }
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
}
