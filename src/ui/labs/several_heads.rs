//! The lab "why several heads?": what a head is, and the dog with a second hand-made head
//! (`core::model::presets::dog_two_heads`) in which "she" looks for something else. A fixed
//! example beside the learner's model, opened in the page with one click (undoable).

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::document::edit::Edit;
use crate::core::forward::trace::Trace;
use crate::core::i18n::keys;
use crate::core::model::presets::{dog_two_heads, DOG_SHE};
use crate::core::teaching::labs;
use crate::core::views::heatmap::Heat;
use crate::ui::labs::frame::{LabText, Stat};
use crate::ui::matrix::LabMatrix;
use crate::ui::state::use_app;

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: keys::labs::several_heads_title,
    short_title: keys::labs::several_heads_short_title,
    hint: keys::labs::several_heads_hint,
};

#[component]
pub fn SeveralHeadsLab() -> impl IntoView {
    let state = use_app();
    let model = dog_two_heads();
    let trace = Trace::of(&model);
    let words: Vec<String> = model.tokens().words.clone();
    // "she"'s row in each head: one row per head.
    let rows = DMatrix::from_fn(trace.heads.len(), words.len(), |h, j| {
        trace.heads[h].weights[(DOG_SHE, j)]
    });
    let ball = rows[(1, 4)];
    let heads: Vec<String> = vec!["head 0".into(), "head 1".into()];
    let refused = RwSignal::new(None::<String>);
    let open = move |_| {
        refused.set(state.apply(Edit::Open(Box::new(dog_two_heads()))).err());
    };
    view! {
        <p>"A head is one set of the three weight matrices, with its own queries, keys, values and weights. One head's softmax gives each token one row of weights: one way of attending, one reason at a time. A word often needs several: “she” needs to know whom she means, and what the sentence's object is."</p>
        <p>"Here is the dog example with a second head, made by hand like the first: its queries and keys read only “thing − alive”, so in it “she” asks for an object and finds “ball”, the object in her sentence, while head 0 still finds “dog”, whom she means. Each head's context vector is computed as before; the layer puts them side by side (concatenated), and a real layer mixes them with one more matrix."</p>
        // An exercise on the dog's weights would find its answer in head 0's row.
        {(!state.exercises.any()).then(move || view! {
            <LabMatrix
                of=labs::LabMatrix::TwoHeads
                title="“she”'s weights in each head"
                values=Signal::stored(rows)
                words=Signal::stored(heads)
                columns=Signal::stored(words)
                heat=Heat::Unit
            />
            <p>"In head 1 “she” gives “ball” " <Stat name="heads_lab" value=Signal::stored(ball)/> " of her attention."</p>
        })}
        <p>"Why several small heads rather than one bigger one? Sebastian Raschka's answer: each head has its own projections, so each can learn to attend to a different kind of relation (whom a pronoun means, which word comes before, what an adjective describes), and a single softmax cannot look two ways at once: one head, however wide, gives each token one row of weights, so two things it needs would be blended into one average. Splitting d_k among the heads keeps the cost about that of one head of their total width. In trained models some heads are found doing exactly such jobs (open the trained model in the settings and pick a head)."</p>
        <p>
            <button type="button" data-action="open-two-heads" on:click=open>"Open the two heads in the page"</button>
            " (Undo brings your model back.)"
            {move || refused.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
        </p>
    }
}
