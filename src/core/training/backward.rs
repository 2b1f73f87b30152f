//! The backward pass: the loss's gradient with respect to every parameter and intermediate,
//! each forward step's backward taken from beside it ([`softmax_rows_backward`],
//! [`neg_log_softmax_backward`], …), equal to PyTorch's autograd in float64.

use nalgebra::DMatrix;

use crate::core::forward::softmax::{neg_log_softmax_backward, softmax_rows_backward};
use crate::core::forward::trace::{context_backward, scores_backward, Trace};
use crate::core::i18n::keys::training;
use crate::core::i18n::Msg;
use crate::core::model::positions::{rotate_backward, Positions};
use crate::core::model::{linear_backward, Biases, Editable, Model, Projection};
use crate::core::text::fmt_scientific;
use crate::core::training::objective::{Goal, Objective};

/// The gradient of the loss with respect to one head's projections and intermediates.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadGradient {
    /// ∂L/∂W_query
    pub w_query: DMatrix<f64>,
    /// ∂L/∂W_key
    pub w_key: DMatrix<f64>,
    /// ∂L/∂W_value
    pub w_value: DMatrix<f64>,
    /// ∂L/∂queries
    pub queries: DMatrix<f64>,
    /// ∂L/∂keys
    pub keys: DMatrix<f64>,
    /// ∂L/∂values
    pub values: DMatrix<f64>,
    /// ∂L/∂scores, before scaling
    pub scores: DMatrix<f64>,
    /// ∂L/∂weights
    pub weights: DMatrix<f64>,
    /// ∂L/∂context
    pub context: DMatrix<f64>,
    /// ∂L/∂b_query, ∂L/∂b_key, ∂L/∂b_value, when the head has biases
    pub biases: Option<Biases>,
}

/// The loss and its gradient with respect to every parameter, trained or not.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradients {
    /// L
    pub loss: f64,
    /// ∂L/∂embedding (vocabulary × d_in)
    pub embedding: DMatrix<f64>,
    /// Per head.
    pub heads: Vec<HeadGradient>,
    /// ∂L/∂W_output and ∂L/∂b_output, with an output projection.
    pub output: Option<(DMatrix<f64>, Option<DMatrix<f64>>)>,
    /// ∂L/∂positions, with learned positions (a row per token).
    pub positions: Option<DMatrix<f64>>,
    /// ∂L/∂source embedding, with cross-attention (source vocabulary × d_in).
    pub source: Option<DMatrix<f64>>,
}

impl Gradients {
    /// ∂L with respect to one of the learner's matrices, if the model has it (a bias, the
    /// output projection, learned positions).
    pub fn of(&self, target: Editable) -> Option<&DMatrix<f64>> {
        let head = |h: usize| self.heads.get(h);
        match target {
            Editable::Embedding => Some(&self.embedding),
            Editable::Weight(h, Projection::Query) => Some(&head(h)?.w_query),
            Editable::Weight(h, Projection::Key) => Some(&head(h)?.w_key),
            Editable::Weight(h, Projection::Value) => Some(&head(h)?.w_value),
            Editable::Bias(h, p) => head(h)?.biases.as_ref().map(|b| &b[p]),
            Editable::OutputWeight => self.output.as_ref().map(|o| &o.0),
            Editable::OutputBias => self.output.as_ref()?.1.as_ref(),
            Editable::Positions => self.positions.as_ref(),
            Editable::SourceEmbedding => self.source.as_ref(),
        }
    }
}

/// The loss of `objective` on `model`, and its gradient, backwards through every step.
pub fn gradients(model: &Model, objective: &Objective) -> Gradients {
    gradients_on(model, &Trace::of(model), objective)
}

/// [`gradients`] from `trace`, `model`'s forward pass (the page's own, already there): the
/// loss is [`Objective::loss`] on it, and each step's backward reads what its forward kept.
pub fn gradients_on(model: &Model, trace: &Trace, objective: &Objective) -> Gradients {
    // The projections take the positioned sentence (the embedded one without positions).
    let embedded = model.positioned();
    let n = embedded.nrows();
    let rope = model.positions().rope();
    let kv_x = model.keys_from(&embedded);
    let m = kv_x.nrows();
    let heads = &trace.heads;
    let loss = objective.loss(trace);
    let mut d_projection = None;
    // ∂L/∂masked from a log-softmax loss, beside ∂L/∂weights (shown, not used backwards: it is
    // −1/w, infinite where a weight underflowed).
    let mut d_log = vec![DMatrix::zeros(n, m); heads.len()];
    let (mut d_weights, d_output) = match &objective.goal {
        Goal::Attend(targets) => {
            let share = 1.0 / targets.len() as f64;
            let mut d: Vec<DMatrix<f64>> = heads.iter().map(|_| DMatrix::zeros(n, m)).collect();
            for t in targets {
                let h = &heads[t.head];
                d[t.head][(t.query, t.key)] -= share / h.weights[(t.query, t.key)];
                neg_log_softmax_backward(&h.weights, t.query, t.key, share, &mut d_log[t.head]);
            }
            (d, None)
        }
        Goal::Output(target) => {
            let diff = &trace.output - target;
            let d_out = diff * (2.0 / target.len() as f64);
            // output = concatenated · W_output + b_output
            let d_concatenated = match (model.output(), &trace.concatenated) {
                (Some(p), Some(concatenated)) => {
                    let g = linear_backward(&concatenated.transpose(), &p.w_output, &d_out);
                    d_projection = Some((g.w, p.b_output.as_ref().map(|_| g.b)));
                    g.x
                }
                _ => d_out,
            };
            (
                vec![DMatrix::zeros(n, m); heads.len()],
                Some(d_concatenated),
            )
        }
    };
    let mut d_embedded = DMatrix::zeros(n, embedded.ncols());
    let mut d_kv_x = DMatrix::zeros(m, embedded.ncols());
    let x_t = embedded.transpose();
    let kv_x_t = kv_x.transpose();
    let mut column = 0;
    let grads = model
        .heads()
        .iter()
        .zip(heads)
        .zip(d_weights.iter_mut())
        .zip(&d_log)
        .map(|(((head, h), d_weights), d_log)| {
            let d_v = head.d_v();
            let d_context = d_output
                .as_ref()
                .map_or_else(|| DMatrix::zeros(n, d_v), |d| d.columns(column, d_v).into());
            column += d_v;
            // Each forward step's backward, last step first.
            let (d_from_context, d_values) = context_backward(&h.weights, &h.values, &d_context);
            // A masked score (weight 0) gets nothing back.
            let d_scaled = softmax_rows_backward(&h.weights, &d_from_context) + d_log;
            *d_weights += d_from_context;
            // A division by a constant is its own backward.
            let d_scores = d_scaled / model.scale.divisor(head.d_k());
            // With RoPE the scores were taken from the rotated queries and keys.
            let (queries, keys) = match (&h.queries_rotated, &h.keys_rotated) {
                (Some(q), Some(k)) => (q, k),
                _ => (&h.queries, &h.keys),
            };
            let (mut d_queries, mut d_keys) = scores_backward(queries, keys, &d_scores);
            if let Some((base, pairs)) = rope {
                d_queries = rotate_backward(&d_queries, base, pairs);
                d_keys = rotate_backward(&d_keys, base, pairs);
            }
            let q = linear_backward(&x_t, &head.w_query, &d_queries);
            let k = linear_backward(&kv_x_t, &head.w_key, &d_keys);
            let v = linear_backward(&kv_x_t, &head.w_value, &d_values);
            d_embedded += q.x;
            d_kv_x += k.x + v.x;
            let biases = head.biases.as_ref().map(|_| Biases {
                b_query: q.b,
                b_key: k.b,
                b_value: v.b,
            });
            HeadGradient {
                biases,
                w_query: q.w,
                w_key: k.w,
                w_value: v.w,
                queries: d_queries,
                keys: d_keys,
                values: d_values,
                scores: d_scores,
                weights: d_weights.clone(),
                context: d_context,
            }
        })
        .collect::<Vec<_>>();
    let grads = shared_kv_backward(model, grads);
    // Without a source the keys and values are the sentence's own.
    let source = model
        .source()
        .map(|s| to_rows(&s.tokens().ids, s.embedding().nrows(), &d_kv_x));
    if source.is_none() {
        d_embedded += d_kv_x;
    }
    let embedding = to_rows(&model.tokens().ids, model.embedding().nrows(), &d_embedded);
    // An attention target is reached before W_output: the loss does not depend on it (zeros,
    // not no gradient: its ∂L face shows them and says so).
    let d_projection = d_projection.or_else(|| {
        model.output().map(|p| {
            let zeros = |m: &DMatrix<f64>| DMatrix::zeros(m.nrows(), m.ncols());
            (zeros(&p.w_output), p.b_output.as_ref().map(zeros))
        })
    });
    // positioned = embedded + P: a learned table gets the positioned rows' gradient.
    let positions = matches!(model.positions(), Positions::Learned(_)).then_some(d_embedded);
    Gradients {
        loss,
        embedding,
        heads: grads,
        output: d_projection,
        positions,
        source,
    }
}

/// embedded = embedding[ids]: each token's gradient goes back to its word's row (of `rows`).
fn to_rows(ids: &[usize], rows: usize, d_embedded: &DMatrix<f64>) -> DMatrix<f64> {
    let mut table = DMatrix::zeros(rows, d_embedded.ncols());
    for (t, &id) in ids.iter().enumerate() {
        let row = table.row(id) + d_embedded.row(t);
        table.set_row(id, &row);
    }
    table
}

/// A key/value head shared by a group of query heads gets the sum of their gradients: each
/// head of the group shows (and a step applies) the same sum, so the copies stay equal; its
/// K and V, shown once for the group, show the sum too.
fn shared_kv_backward(model: &Model, mut grads: Vec<HeadGradient>) -> Vec<HeadGradient> {
    if !model.shares_kv() {
        return grads;
    }
    for g in 0..model.kv_heads() {
        let group: Vec<usize> = (0..grads.len()).filter(|&h| model.kv_of(h) == g).collect();
        let sum = |pick: fn(&HeadGradient) -> Option<&DMatrix<f64>>| {
            group
                .iter()
                .filter_map(|&h| pick(&grads[h]).cloned())
                .reduce(|a, b| a + b)
        };
        let (w_key, w_value) = (sum(|h| Some(&h.w_key)), sum(|h| Some(&h.w_value)));
        let (keys, values) = (sum(|h| Some(&h.keys)), sum(|h| Some(&h.values)));
        let b_key = sum(|h| h.biases.as_ref().map(|b| &b.b_key));
        let b_value = sum(|h| h.biases.as_ref().map(|b| &b.b_value));
        for &h in &group {
            let grad = &mut grads[h];
            grad.w_key
                .clone_from(w_key.as_ref().expect("a group has heads"));
            grad.w_value
                .clone_from(w_value.as_ref().expect("a group has heads"));
            grad.keys
                .clone_from(keys.as_ref().expect("a group has heads"));
            grad.values
                .clone_from(values.as_ref().expect("a group has heads"));
            if let (Some(b), Some(k), Some(v)) = (grad.biases.as_mut(), &b_key, &b_value) {
                b.b_key.clone_from(k);
                b.b_value.clone_from(v);
            }
        }
    }
    grads
}

/// ∂L/∂`name`[i][j] = `x` in words: what raising the number does to the loss, in powers of
/// ten as the gradient's cells are; a zero gradient leaves the number alone.
pub fn gradient_words(name: &str, (i, j): (usize, usize), x: f64) -> Msg {
    // Not words: the formula and its value.
    let gradient = format!("∂L/∂{name}[{i}][{j}] = {}", fmt_scientific(x));
    if x == 0.0 {
        return training::gradient_zero(gradient);
    }
    let by = fmt_scientific((0.01 * x).abs());
    if x > 0.0 {
        training::gradient_raises(gradient, by)
    } else {
        training::gradient_lowers(gradient, by)
    }
}

/// Each forward step's backward against a central difference of the step itself.
#[cfg(test)]
mod pairs {
    use nalgebra::DMatrix;

    use crate::core::forward::softmax::{
        mask_future, neg_log_softmax, neg_log_softmax_backward, softmax_rows, softmax_rows_backward,
    };
    use crate::core::forward::trace::{context_backward, scores_backward};
    use crate::core::model::linear_backward;
    use crate::core::model::positions::{rotate, rotate_backward, Rope};

    /// A central difference of `f` at every cell of `x`.
    fn numeric(x: &DMatrix<f64>, f: impl Fn(&DMatrix<f64>) -> f64) -> DMatrix<f64> {
        const H: f64 = 1e-6;
        DMatrix::from_fn(x.nrows(), x.ncols(), |i, j| {
            let (mut up, mut down) = (x.clone(), x.clone());
            up[(i, j)] += H;
            down[(i, j)] -= H;
            (f(&up) - f(&down)) / (2.0 * H)
        })
    }

    /// Some numbers of every sign, `rows` × `cols`, different for each `salt`.
    fn sample(rows: usize, cols: usize, salt: f64) -> DMatrix<f64> {
        DMatrix::from_fn(rows, cols, |i, j| {
            ((i * 7 + j * 3) as f64 + salt).sin() * 1.7
        })
    }

    fn close(a: &DMatrix<f64>, b: &DMatrix<f64>) {
        assert!((a - b).amax() < 1e-7, "{a} against {b}");
    }

    #[test]
    fn softmax_with_its_mask() {
        // L = Σ c ⊙ softmax(masked x), so ∂L/∂weights = c; a masked score gets 0 both ways.
        let (x, c) = (sample(3, 3, 0.1), sample(3, 3, 2.0));
        let analytic = softmax_rows_backward(&softmax_rows(&mask_future(&x)), &c);
        close(
            &analytic,
            &numeric(&x, |s| {
                softmax_rows(&mask_future(s)).component_mul(&c).sum()
            }),
        );
    }

    #[test]
    fn log_softmax_stays_finite_where_the_weight_underflows() {
        let x = sample(3, 3, 0.4);
        let mut analytic = DMatrix::zeros(3, 3);
        neg_log_softmax_backward(&softmax_rows(&x), 2, 1, 0.5, &mut analytic);
        close(&analytic, &numeric(&x, |s| 0.5 * neg_log_softmax(s, 2, 1)));
        // ln 0 is −∞; the log-sum-exp is the gap.
        let far = DMatrix::from_row_slice(1, 2, &[0.0, -1000.0]);
        assert_eq!(softmax_rows(&far)[(0, 1)], 0.0);
        assert_eq!(neg_log_softmax(&far, 0, 1), 1000.0);
        let mut d = DMatrix::zeros(1, 2);
        neg_log_softmax_backward(&softmax_rows(&far), 0, 1, 1.0, &mut d);
        assert_eq!((d[(0, 0)], d[(0, 1)]), (1.0, -1.0));
    }

    #[test]
    fn a_projection_with_its_bias() {
        let (x, w, b, c) = (
            sample(4, 3, 0.2),
            sample(3, 2, 1.1),
            sample(1, 2, 3.0),
            sample(4, 2, 0.7),
        );
        let out = |x: &DMatrix<f64>, w: &DMatrix<f64>, b: &DMatrix<f64>| {
            let mut o = x * w;
            crate::core::model::add_row(&mut o, b);
            o.component_mul(&c).sum()
        };
        let g = linear_backward(&x.transpose(), &w, &c);
        close(&g.x, &numeric(&x, |x| out(x, &w, &b)));
        close(&g.w, &numeric(&w, |w| out(&x, w, &b)));
        close(&g.b, &numeric(&b, |b| out(&x, &w, b)));
    }

    #[test]
    fn scores_and_context() {
        let (q, k, c) = (sample(3, 2, 0.3), sample(3, 2, 1.4), sample(3, 3, 2.2));
        let (d_q, d_k) = scores_backward(&q, &k, &c);
        close(
            &d_q,
            &numeric(&q, |q| (q * k.transpose()).component_mul(&c).sum()),
        );
        close(
            &d_k,
            &numeric(&k, |k| (&q * k.transpose()).component_mul(&c).sum()),
        );
        let (w, v, c) = (sample(3, 3, 0.9), sample(3, 4, 1.6), sample(3, 4, 0.5));
        let (d_w, d_v) = context_backward(&w, &v, &c);
        close(&d_w, &numeric(&w, |w| (w * &v).component_mul(&c).sum()));
        close(&d_v, &numeric(&v, |v| (&w * v).component_mul(&c).sum()));
    }

    #[test]
    fn scaling_and_rotation() {
        let (x, c) = (sample(5, 4, 0.6), sample(5, 4, 1.9));
        // A division by a constant is its own backward.
        close(
            &(&c / 3.0),
            &numeric(&x, |x| (x / 3.0).component_mul(&c).sum()),
        );
        for pairs in [Rope::Half, Rope::Interleaved] {
            let analytic = rotate_backward(&c, 10.0, pairs);
            close(
                &analytic,
                &numeric(&x, |x| rotate(x, 10.0, pairs, 1.0).component_mul(&c).sum()),
            );
        }
    }
}
