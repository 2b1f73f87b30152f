//! The FlashAttention lab: softmax(Q·Kᵀ/s)·V computed a tile at a time, never holding the
//! n × m matrix. For a block of queries it walks over the key tiles keeping, per query, the
//! running maximum m, the running sum l and the running output O (the online softmax): a new
//! tile's larger maximum rescales what came before by e^(m_old − m_new). After the last tile,
//! O / l is the context.

use nalgebra::DMatrix;

use crate::core::document::numbers::whole;
use crate::core::forward::trace::HeadTrace;
use crate::core::i18n::Msg;

/// The running state of one block of queries after one key tile.
#[derive(Clone, Debug, PartialEq)]
pub struct FlashTile {
    /// The block of queries (rows `rows.0..rows.1`).
    pub rows: (usize, usize),
    /// The key tile just taken (columns `keys.0..keys.1`).
    pub keys: (usize, usize),
    /// Whether the causal mask hid the whole tile from the block: skipped, nothing computed.
    pub skipped: bool,
    /// The tile's scaled (and masked) scores (block × tile); empty when skipped.
    pub scores: DMatrix<f64>,
    /// e^(m_old − m_new) per query: how much what came before shrinks.
    pub rescale: Vec<f64>,
    /// The running maximum per query.
    pub m: Vec<f64>,
    /// The running sum of e^(score − m) per query.
    pub l: Vec<f64>,
    /// The running output, not yet divided by l (block × d_v).
    pub o: DMatrix<f64>,
}

impl FlashTile {
    /// O / l: after a block's last tile, its rows of the context.
    pub fn context(&self) -> DMatrix<f64> {
        let mut o = self.o.clone();
        for (mut row, &l) in o.row_iter_mut().zip(&self.l) {
            row /= l;
        }
        o
    }

    /// The query of the block whose maximum this tile raised the most (its smallest rescaling
    /// below 1), if any did: the one the lab's words follow.
    pub fn most_rescaled(&self) -> Option<usize> {
        (0..self.rescale.len())
            .filter(|&i| self.rescale[i] > 0.0 && self.rescale[i] < 1.0)
            .min_by(|&a, &b| self.rescale[a].total_cmp(&self.rescale[b]))
    }
}

/// A tile size as typed: a whole number from 1 to the number of keys, or why not.
pub fn read_block(text: &str, keys: usize) -> Result<usize, Msg> {
    // One range, the keys': the field and its message say the same.
    whole(text, 1, keys as u64).map(|b| b as usize)
}

/// Every tile of every block of queries, in order, for one head (`causal`: the mask skips the
/// tiles wholly above the diagonal). The scores are taken from the head's (rotated) queries and
/// keys divided by `divisor`, as the page's are.
pub fn walk(head: &HeadTrace, divisor: f64, causal: bool, block: usize) -> Vec<FlashTile> {
    let q = head.queries_rotated.as_ref().unwrap_or(&head.queries);
    let k = head.keys_rotated.as_ref().unwrap_or(&head.keys);
    let v = &head.values;
    let (n, m, d_v) = (q.nrows(), k.nrows(), v.ncols());
    let block = block.clamp(1, m.max(1));
    let mut tiles = Vec::new();
    for r0 in (0..n).step_by(block) {
        let r1 = (r0 + block).min(n);
        let rows = r1 - r0;
        let (mut mx, mut l) = (vec![f64::NEG_INFINITY; rows], vec![0.0; rows]);
        let mut o = DMatrix::zeros(rows, d_v);
        for c0 in (0..m).step_by(block) {
            let c1 = (c0 + block).min(m);
            // Every key of the tile lies after every query of the block.
            if causal && c0 > r1 - 1 {
                tiles.push(FlashTile {
                    rows: (r0, r1),
                    keys: (c0, c1),
                    skipped: true,
                    scores: DMatrix::zeros(0, 0),
                    rescale: vec![1.0; rows],
                    m: mx.clone(),
                    l: l.clone(),
                    o: o.clone(),
                });
                continue;
            }
            let scores = DMatrix::from_fn(rows, c1 - c0, |i, j| {
                if causal && c0 + j > r0 + i {
                    f64::NEG_INFINITY
                } else {
                    q.row(r0 + i).dot(&k.row(c0 + j)) / divisor
                }
            });
            let mut rescale = vec![1.0; rows];
            for i in 0..rows {
                let m_new = scores.row(i).iter().copied().fold(mx[i], f64::max);
                // A row with nothing seen yet (−∞ both) has nothing to rescale.
                rescale[i] = if m_new == f64::NEG_INFINITY {
                    1.0
                } else {
                    (mx[i] - m_new).exp()
                };
                let p: Vec<f64> = scores
                    .row(i)
                    .iter()
                    .map(|&s| {
                        if s == f64::NEG_INFINITY {
                            0.0
                        } else {
                            (s - m_new).exp()
                        }
                    })
                    .collect();
                l[i] = rescale[i] * l[i] + p.iter().sum::<f64>();
                for c in 0..d_v {
                    let added: f64 = p.iter().enumerate().map(|(j, w)| w * v[(c0 + j, c)]).sum();
                    o[(i, c)] = rescale[i] * o[(i, c)] + added;
                }
                mx[i] = m_new;
            }
            tiles.push(FlashTile {
                rows: (r0, r1),
                keys: (c0, c1),
                skipped: false,
                scores,
                rescale,
                m: mx.clone(),
                l: l.clone(),
                o: o.clone(),
            });
        }
    }
    tiles
}

/// The context the walk gives: each block's last tile's O divided by l, stacked.
pub fn output(tiles: &[FlashTile], n: usize, d_v: usize) -> DMatrix<f64> {
    let mut out = DMatrix::zeros(n, d_v);
    // The walk takes a block's tiles in a run: its last is the one before the next block's.
    let last = tiles
        .iter()
        .zip(tiles.iter().skip(1).map(Some).chain([None]))
        .filter(|(t, next)| next.is_none_or(|next| next.rows != t.rows))
        .map(|(t, _)| t);
    for t in last {
        out.rows_mut(t.rows.0, t.rows.1 - t.rows.0)
            .copy_from(&t.context());
    }
    out
}

/// The largest difference between the walk's context and `head`'s (the page's).
pub fn max_diff(tiles: &[FlashTile], head: &HeadTrace) -> f64 {
    let (n, d_v) = head.context.shape();
    (output(tiles, n, d_v) - &head.context).abs().max()
}

/// The numbers the walk holds at once, B·B scores and B·d_v of output, against the n·m a full
/// scores matrix takes (a tile is never wider than the m keys).
pub fn numbers_held(block: usize, d_v: usize, n: usize, m: usize) -> (usize, usize) {
    let block = block.min(m);
    (block * block + block * d_v, n * m)
}
