//! The training engine's refusals: objectives, optimisers and the lab's session.

keys! { "training";
}
