//! Experiments beside the steps they explain: why √dₖ (after the scaling), why −∞ (after the
//! mask), training the weights (after the softmax), and what several heads add (inside the
//! output step). The numbers come from
//! `core::sqrt_dk` and `core::labs`; these components only draw them. Each lab's file holds its
//! words and its view; `frame` what they share.

use leptos::prelude::*;

use crate::core::pipeline::Lab;
use crate::ui::on_demand::{chunk, LoadedNear};
use frame::{LabSection, LabText};

pub mod frame;
pub mod heads;
pub mod mask;
pub mod order;
pub mod sqrt_dk;
pub mod train;

/// What the page says about `lab`.
pub fn text(lab: Lab) -> &'static LabText {
    match lab {
        Lab::SqrtDk => &sqrt_dk::TEXT,
        Lab::Mask => &mask::TEXT,
        Lab::Train => &train::TEXT,
        Lab::Order => &order::TEXT,
    }
}

/// The lab's component.
pub fn render(lab: Lab) -> AnyView {
    match lab {
        Lab::SqrtDk => sqrt_dk::SqrtDkLab().into_any(),
        Lab::Mask => mask::MaskLab().into_any(),
        Lab::Train => view! {
            <LabSection lab=Lab::Train text=&train::TEXT>
                <LoadedNear load=train_lab what="the lab"/>
            </LabSection>
        }
        .into_any(),
        Lab::Order => view! {
            <LabSection lab=Lab::Order text=&order::TEXT>
                <LoadedNear load=order_lab what="the lab"/>
            </LabSection>
        }
        .into_any(),
    }
}

chunk! {
    /// The order lab's body, in its own wasm chunk.
    order_lab => order::OrderLab().into_any()
}

chunk! {
    /// The training lab's body, in its own wasm chunk.
    train_lab => train::TrainLab().into_any()
}
