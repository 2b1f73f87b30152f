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
#[inline(always)]
pub fn dequantize_into(kind: Kind, bytes: &[u8], out: &mut [f64]) {
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
        Kind::Q8_0 | Kind::Q4_1 => {
            let (_, size) = kind.block();
            for (o, block) in out.chunks_exact_mut(32).zip(bytes.chunks_exact(size)) {
                block::numbers(kind, block, o);
            }
        }
    }
}

/// The float16 in the first two bytes of `b`, as float32.
#[inline(always)]
fn half(b: &[u8]) -> f32 {
    f16::from_le_bytes([b[0], b[1]]).to_f32()
}

/// One block of 32 numbers, natively (the compiler makes the arithmetic SIMD by itself) or in a
/// WebAssembly build without SIMD (the component tests).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod block {
    use super::{half, Kind};

    /// A Q8_0 block's `d·q` of 32 signed bytes, or a Q4_1 block's `d·q + m` of 32 four-bit `q`
    /// (the low halves of its 16 bytes first), into `out`. A Q4_1 block's 16 values are computed
    /// once (the same float32 arithmetic), then looked up: natively 1.3× quicker.
    #[inline(always)]
    pub fn numbers(kind: Kind, block: &[u8], out: &mut [f64]) {
        let d = half(block);
        if kind == Kind::Q8_0 {
            for (o, &q) in out.iter_mut().zip(&block[2..]) {
                *o = f64::from(d * f32::from(q as i8));
            }
            return;
        }
        let m = half(&block[2..]);
        let mut values = [0.0; 16];
        for (q, v) in values.iter_mut().enumerate() {
            *v = f64::from(d * q as f32 + m);
        }
        let (low, high) = out.split_at_mut(16);
        for ((l, h), &q) in low.iter_mut().zip(high).zip(&block[4..]) {
            *l = values[usize::from(q & 0x0F)];
            *h = values[usize::from(q >> 4)];
        }
    }
}

/// One block of 32 numbers in WebAssembly, four at a time with its SIMD instructions (a table
/// lookup per number has none): the same float32 products and sums as natively, lane by lane.
/// Each four go to a sink: a row's place, or straight into a dot product's sums.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod block {
    use core::arch::wasm32::*;

    use super::{half, Kind};

    /// 16 bytes of `q` as one vector.
    #[inline(always)]
    fn load(q: &[u8]) -> v128 {
        let q = &q[..16];
        // SAFETY: `q` holds 16 bytes; WebAssembly loads need no alignment.
        unsafe { v128_load(q.as_ptr().cast()) }
    }

    /// `x[..4]` as two pairs.
    #[inline(always)]
    fn pairs(x: &[f64]) -> [v128; 2] {
        let x = &x[..4];
        // SAFETY: `x` holds four float64 (32 bytes); WebAssembly loads need no alignment.
        unsafe {
            [
                v128_load(x.as_ptr().cast()),
                v128_load(x.as_ptr().add(2).cast()),
            ]
        }
    }

    /// Four float32 lanes as two pairs of float64.
    #[inline(always)]
    fn widen(f: v128) -> [v128; 2] {
        let high = i32x4_shuffle::<2, 3, 2, 3>(f, f);
        [f64x2_promote_low_f32x4(f), f64x2_promote_low_f32x4(high)]
    }

    /// Eight 16-bit integers (`signed` or not) times `d`, plus `m`: four at `at`, four at `at + 4`.
    #[inline(always)]
    fn eight(
        q: v128,
        signed: bool,
        (d, m): (v128, v128),
        at: usize,
        sink: &mut impl FnMut(usize, v128),
    ) {
        let widened = if signed {
            [i32x4_extend_low_i16x8(q), i32x4_extend_high_i16x8(q)]
        } else {
            [u32x4_extend_low_u16x8(q), u32x4_extend_high_u16x8(q)]
        };
        for (k, q) in widened.into_iter().enumerate() {
            sink(
                at + 4 * k,
                f32x4_add(f32x4_mul(d, f32x4_convert_i32x4(q)), m),
            );
        }
    }

    /// A block's numbers, four at a time in order: `d·q` of 32 signed bytes (plus -0.0, which
    /// changes no float32) for Q8_0, `d·q + m` of 32 four-bit `q` for Q4_1 (the low halves of
    /// its 16 bytes first).
    #[inline(always)]
    fn each(kind: Kind, block: &[u8], sink: &mut impl FnMut(usize, v128)) {
        if kind == Kind::Q8_0 {
            let dm = (f32x4_splat(half(block)), f32x4_splat(-0.0));
            for (h, q) in [load(&block[2..]), load(&block[18..])]
                .into_iter()
                .enumerate()
            {
                eight(i16x8_extend_low_i8x16(q), true, dm, 16 * h, sink);
                eight(i16x8_extend_high_i8x16(q), true, dm, 16 * h + 8, sink);
            }
        } else {
            let dm = (f32x4_splat(half(block)), f32x4_splat(half(&block[2..])));
            let bytes = load(&block[4..]);
            let halves = [v128_and(bytes, u8x16_splat(0x0F)), u8x16_shr(bytes, 4)];
            for (h, q) in halves.into_iter().enumerate() {
                eight(u16x8_extend_low_u8x16(q), false, dm, 16 * h, sink);
                eight(u16x8_extend_high_u8x16(q), false, dm, 16 * h + 8, sink);
            }
        }
    }

    /// A Q8_0 or Q4_1 block's 32 numbers into `out`.
    #[inline(always)]
    pub fn numbers(kind: Kind, block: &[u8], out: &mut [f64]) {
        each(kind, block, &mut |at, f| {
            let out = &mut out[at..at + 4];
            // SAFETY: `out` holds four float64; WebAssembly stores need no alignment.
            unsafe {
                for (k, pair) in widen(f).into_iter().enumerate() {
                    v128_store(out.as_mut_ptr().add(2 * k).cast(), pair);
                }
            }
        });
    }

    /// `row · x` for a row of Q8_0 or Q4_1 blocks, each block's numbers multiplied as they are
    /// made (never stored): the same products, summed in the same order as `dot`.
    pub fn dot_row(kind: Kind, row: &[u8], x: &[f64]) -> f64 {
        let bytes = kind.block().1;
        let mut sums = [f64x2_splat(0.0); 2];
        for (block, x) in row.chunks_exact(bytes).zip(x.chunks_exact(32)) {
            each(kind, block, &mut |at, f| {
                for ((sum, w), x) in sums.iter_mut().zip(widen(f)).zip(pairs(&x[at..])) {
                    *sum = f64x2_add(*sum, f64x2_mul(w, x));
                }
            });
        }
        let [low, high] = sums;
        // `dot`'s sum of its (here empty) remainder, added as it adds it.
        let tail: f64 = core::iter::empty::<f64>().sum();
        (f64x2_extract_lane::<0>(low) + f64x2_extract_lane::<1>(low))
            + (f64x2_extract_lane::<0>(high) + f64x2_extract_lane::<1>(high))
            + tail
    }
}

/// The places where `a` and `b` differ bit for bit (over the shorter's length), in order: a
/// learner's changed cells among a layer's 1.3 million numbers, found a block of 32 at a time.
pub fn differences(a: &[f64], b: &[f64]) -> Vec<usize> {
    let mut out = Vec::new();
    for (k, (x, y)) in a.chunks(32).zip(b.chunks(32)).enumerate() {
        let bits = |(x, y): (&f64, &f64)| x.to_bits() ^ y.to_bits();
        if x.iter().zip(y).map(bits).fold(0, |all, d| all | d) != 0 {
            let differ = x
                .iter()
                .zip(y)
                .map(bits)
                .enumerate()
                .filter(|&(_, d)| d != 0);
            out.extend(differ.map(|(i, _)| 32 * k + i));
        }
    }
    out
}

/// The place of the first number of `a` that is not finite within ±`max`, a block of 32
/// checked at a time.
pub fn first_outside(a: &[f64], max: f64) -> Option<usize> {
    // `!(|x| <= max)`: true for NaN and the infinities too.
    let outside = |x: &f64| !(x.abs() <= max);
    a.chunks(32).enumerate().find_map(|(k, x)| {
        let any = x.iter().fold(false, |any, x| any | outside(x));
        any.then(|| 32 * k + x.iter().position(outside).unwrap_or(0))
    })
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
    /// Row `r`'s stored bytes.
    #[inline(always)]
    fn row_bytes(&self, r: usize) -> &[u8] {
        let r = self.order.map_or(r, |o| o[r]);
        let len = self.bytes.len() / self.rows;
        &self.bytes[r * len..(r + 1) * len]
    }

    /// Row `r`, de-quantized into `out` (`cols` long).
    #[inline(always)]
    pub fn row_into(&self, r: usize, out: &mut [f64]) {
        dequantize_into(self.kind, self.row_bytes(r), out);
    }

    /// `x · selfᵀ` for `n` token rows of `cols` numbers in `x` (row after row): token `t`'s
    /// number `r` goes to `out[r·n + t]` (a column per matrix row, as nalgebra stores an n × rows
    /// matrix). Each matrix row is de-quantized once for all the tokens. In WebAssembly, with its
    /// SIMD instructions (every browser since 2023): the four running sums of [`dot`] as two
    /// pairs, and one token's row (a token written) multiplied block by block as it is
    /// de-quantized; the same sums bit for bit.
    pub fn times_tokens(&self, x: &[f64], n: usize, out: &mut [f64]) {
        assert_eq!(x.len(), n * self.cols, "a linear layer's input width");
        assert_eq!(out.len(), n * self.rows, "a linear layer's output size");
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if n == 1 && matches!(self.kind, Kind::Q8_0 | Kind::Q4_1) {
            for (r, o) in out.iter_mut().enumerate() {
                *o = block::dot_row(self.kind, self.row_bytes(r), x);
            }
            return;
        }
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
#[inline(always)]
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
