//! Experiments beside the steps they explain: why √dₖ (after the scaling), why −∞ (after the
//! mask), training the weights (after the softmax), why several heads, word order, the KV cache
//! and FlashAttention's tiles (after the context), and what
//! several heads add (inside the output step). The numbers come from
//! `core::teaching` and `core::training`; these components only draw them. Each lab's file holds its
//! words and its view; `frame` what they share.

use leptos::prelude::*;

use crate::core::views::pipeline::Lab;
use crate::ui::on_demand::{chunk, LoadedNear, Loading};
use frame::{LabSection, LabText};

pub mod flash;
pub mod frame;
pub mod heads;
pub mod kv_cache;
pub mod mask;
pub mod order;
pub mod several_heads;
pub mod sqrt_dk;
pub mod train;

/// What the page says about `lab`.
pub fn text(lab: Lab) -> &'static LabText {
    match lab {
        Lab::SqrtDk => &sqrt_dk::TEXT,
        Lab::Mask => &mask::TEXT,
        Lab::Train => &train::TEXT,
        Lab::Order => &order::TEXT,
        Lab::KvCache => &kv_cache::TEXT,
        Lab::Flash => &flash::TEXT,
        Lab::Heads => &several_heads::TEXT,
    }
}

/// The lab's frame, drawn at once, around its body, which is a wasm chunk of its own: the √dₖ
/// and masking labs' come once the page has painted, the others' when they come near.
pub fn render(lab: Lab) -> AnyView {
    // The labs' settings outlive their bodies (a hidden step takes its lab's body away).
    match lab {
        Lab::SqrtDk => provide_context(sqrt_dk::Setting::default()),
        Lab::Mask => provide_context(mask::Exponent(RwSignal::new(0))),
        Lab::Train | Lab::Heads | Lab::Order | Lab::KvCache | Lab::Flash => {}
    }
    let (load, soon): (fn() -> Loading, bool) = match lab {
        Lab::SqrtDk => (sqrt_dk_lab, true),
        Lab::Mask => (mask_lab, true),
        Lab::Train => (train_lab, false),
        Lab::Order => (order_lab, false),
        Lab::KvCache => (kv_cache_lab, false),
        Lab::Flash => (flash_lab, false),
        Lab::Heads => (heads_lab, false),
    };
    view! {
        <LabSection lab text=text(lab)>
            <LoadedNear load what=crate::core::i18n::keys::labs::the_lab soon/>
        </LabSection>
    }
    .into_any()
}

chunk! {
    /// The √dₖ lab's body, in its own wasm chunk.
    sqrt_dk_lab => sqrt_dk::SqrtDkLab().into_any()
}

chunk! {
    /// The masking lab's body, in its own wasm chunk.
    mask_lab => mask::MaskLab().into_any()
}

chunk! {
    /// The order lab's body, in its own wasm chunk.
    order_lab => order::OrderLab().into_any()
}

chunk! {
    /// The training lab's body, in its own wasm chunk.
    train_lab => train::TrainLab().into_any()
}

chunk! {
    /// The KV cache lab's body, in its own wasm chunk.
    kv_cache_lab => kv_cache::KvCacheLab().into_any()
}

chunk! {
    /// The several heads lab's body, in its own wasm chunk.
    heads_lab => several_heads::SeveralHeadsLab().into_any()
}

chunk! {
    /// The FlashAttention lab's body, in its own wasm chunk.
    flash_lab => flash::FlashLab().into_any()
}
