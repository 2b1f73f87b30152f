//! PyTorch's CPU random generator, bit-compatible: `torch.manual_seed`, `torch.rand`,
//! `nn.Embedding`'s normal init and `nn.Linear`'s kaiming-uniform init.
//!
//! The algorithms are spelled out in `tests/fixtures/README.md` and checked against PyTorch's
//! own output in `tests/torch_rng.rs`.

use nalgebra::DMatrix;
use rand_mt::Mt;

/// PyTorch's normal fill switches to 16-wide Box–Muller blocks at this many values.
const NORMAL_BLOCK: usize = 16;

/// The state of `torch.manual_seed(seed)`: MT19937 plus the cached second normal sample.
pub struct TorchRng {
    mt: Mt,
    cached_normal: Option<f64>,
}

impl TorchRng {
    /// `torch.manual_seed(seed)`: PyTorch seeds MT19937 with the low 32 bits.
    pub fn manual_seed(seed: u64) -> Self {
        TorchRng {
            mt: Mt::new(seed as u32),
            cached_normal: None,
        }
    }

    fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }

    /// One float32 uniform in [0, 1), as `torch.rand` draws it (low 24 bits of one draw).
    fn uniform_f32(&mut self) -> f32 {
        (self.next_u32() & 0x00FF_FFFF) as f32 * (1.0 / (1u32 << 24) as f32)
    }

    /// One float64 uniform in [0, 1) from two draws, as PyTorch's double path builds it.
    fn uniform_f64(&mut self) -> f64 {
        let first = self.next_u32() as u64;
        let second = self.next_u32() as u64;
        (((first << 32) | second) & ((1u64 << 53) - 1)) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `torch.rand(rows, cols)`: float32 values (widened exactly to f64), row-major draws.
    pub fn rand(&mut self, rows: usize, cols: usize) -> DMatrix<f64> {
        let values: Vec<f64> = (0..rows * cols)
            .map(|_| self.uniform_f32() as f64)
            .collect();
        DMatrix::from_row_slice(rows, cols, &values)
    }

    /// `nn.Linear(in_features, out_features, bias=False).weight`, shape (out, in):
    /// uniform on (−b, b) with b = 1/√in, from kaiming_uniform_(a = √5).
    pub fn linear_weight(&mut self, in_features: usize, out_features: usize) -> DMatrix<f64> {
        let a = 5f64.sqrt();
        let gain = (2.0 / (1.0 + a.powi(2))).sqrt();
        let bound = 3f64.sqrt() * (gain / (in_features as f64).sqrt());
        let values = self.uniform(in_features * out_features, bound);
        DMatrix::from_row_slice(out_features, in_features, &values)
    }

    /// `nn.Linear(in_features, n).bias` (drawn after its weight): uniform on ±1/√in, as one row.
    pub fn linear_bias(&mut self, in_features: usize, n: usize) -> DMatrix<f64> {
        let values = self.uniform(n, 1.0 / (in_features as f64).sqrt());
        DMatrix::from_row_slice(1, n, &values)
    }

    /// `n` values of `uniform_(−bound, bound)` on a float32 tensor.
    fn uniform(&mut self, n: usize, bound: f64) -> Vec<f64> {
        // PyTorch narrows the bounds to float32, maps in double, then stores float32.
        let (from, to) = (-bound as f32 as f64, bound as f32 as f64);
        (0..n)
            .map(|_| {
                let x = (self.next_u32() & 0x00FF_FFFF) as f64 / (1u32 << 24) as f64;
                (x * (to - from) + from) as f32 as f64
            })
            .collect()
    }

    /// The given rows of `nn.Embedding(num_embeddings, dim).weight` (a standard normal fill),
    /// computing only the blocks that hold them: the Raschka tutorial needs 6 rows of 50 000.
    /// Rows outside the table are returned as zeros.
    pub fn embedding_rows(
        &mut self,
        num_embeddings: usize,
        dim: usize,
        rows: &[usize],
    ) -> DMatrix<f64> {
        let size = num_embeddings * dim;
        let mut out = DMatrix::zeros(rows.len(), dim);

        if size < NORMAL_BLOCK {
            // Scalar double-precision path: each pair of uniforms gives two normals.
            for flat in 0..size {
                let value = self.normal_f64() as f32;
                store(&mut out, rows, dim, flat, value);
            }
            return out;
        }

        // Vector path: all uniforms first, then Box–Muller on each block of 16; a size that is not
        // a multiple of 16 then redraws the last 16 values. Stream the draws, keep only what we need.
        let blocks = size / NORMAL_BLOCK;
        let needed_block = |b: usize| {
            rows.iter().any(|&r| {
                r < num_embeddings
                    && r * dim / NORMAL_BLOCK <= b
                    && b <= (r * dim + dim - 1) / NORMAL_BLOCK
            })
        };
        let mut block = [0f32; NORMAL_BLOCK];
        for b in 0..blocks {
            for x in block.iter_mut() {
                *x = self.uniform_f32();
            }
            if needed_block(b) {
                box_muller_block(&block, b * NORMAL_BLOCK, dim, rows, &mut out);
            }
        }
        let tail = size % NORMAL_BLOCK;
        for _ in 0..tail {
            self.next_u32();
        }
        if tail != 0 {
            for x in block.iter_mut() {
                *x = self.uniform_f32();
            }
            box_muller_block(&block, size - NORMAL_BLOCK, dim, rows, &mut out);
        }
        out
    }

    /// One standard normal sample, as `at::normal_distribution<double>` draws it: Box–Muller on
    /// two double uniforms, the second sample cached for the next call.
    pub fn normal_f64(&mut self) -> f64 {
        if let Some(cached) = self.cached_normal.take() {
            return cached;
        }
        let u1 = self.uniform_f64();
        let u2 = self.uniform_f64();
        let radius = (-2.0 * (-u2).ln_1p()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u1;
        self.cached_normal = Some(radius * theta.sin());
        radius * theta.cos()
    }
}

/// Box–Muller on one block of 16 uniforms starting at flat index `start`, written into the
/// wanted rows of `out`.
fn box_muller_block(
    uniforms: &[f32; NORMAL_BLOCK],
    start: usize,
    dim: usize,
    rows: &[usize],
    out: &mut DMatrix<f64>,
) {
    let half = NORMAL_BLOCK / 2;
    for j in 0..half {
        let u1 = 1.0 - uniforms[j];
        let u2 = uniforms[j + half];
        let radius = (-2.0 * u1.ln()).sqrt();
        let theta = 2.0 * std::f32::consts::PI * u2;
        store(out, rows, dim, start + j, radius * theta.cos());
        store(out, rows, dim, start + j + half, radius * theta.sin());
    }
}

/// Writes the value at flat index `flat` of the full table into every output row that asked for it.
fn store(out: &mut DMatrix<f64>, rows: &[usize], dim: usize, flat: usize, value: f32) {
    for (i, _) in rows.iter().enumerate().filter(|(_, &r)| r == flat / dim) {
        out[(i, flat % dim)] = value as f64;
    }
}
