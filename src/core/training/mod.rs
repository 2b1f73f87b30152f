//! Training: the objective and its loss ([`objective`]), the backward pass ([`backward`]), the
//! optimisers ([`optimizer`]), and the training lab's setup and race ([`lab`]). The first
//! three's items are re-exported here: `training::{Objective, gradients, Trainer}`.

pub mod backward;
pub mod lab;
pub mod objective;
pub mod optimizer;

pub use backward::{gradient_words, gradients, gradients_on, Gradients, HeadGradient};
pub use objective::{output_shape, second_key, Goal, Objective, Param, Target};
pub use optimizer::{
    max_steps, train, Optimizer, Refused, Trained, Trainer, DEFAULT_LR, MAX_STEPS,
};
