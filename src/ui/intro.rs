//! The page's opening: what attention is for, in plain words, then its result on the page's own
//! numbers (where the followed token looks, and why, told from the numbers), with one invitation
//! to act on it; the lesson's walk starts here. Meaning first, the steps that make it below.

use leptos::prelude::*;

use crate::ui::lines::AttentionLines;
use crate::ui::state::use_app;
use crate::ui::walk::Walk;

#[component]
pub fn Intro() -> impl IntoView {
    let state = use_app();
    let head = Memo::new(move |_| state.derived.visible_heads.with(|v| v[0]));
    // Where this model's numbers come from: said, since a learner may take hand-made for learned.
    let origin = move || {
        if state.doc.model.with(|m| m.layered().is_some()) {
            "This layer's numbers were learned by a real model from a great deal of text."
        } else if state.preset() == Some("dog") {
            "A trained model learns its numbers from a great deal of text; these were made by hand to show what trained ones do."
        } else {
            "A trained model learns its numbers from a great deal of text; these are random, as a model's are before training, or your own."
        }
    };
    // An exercise's page opens on its questions: the result would give answers away.
    if state.exercises.any() {
        return view! {
            <header class="intro">
                <h1>"Attention Explorer"</h1>
                <p>"Attention lets each word of a sentence look at the others and take in what they carry. Every number below is live: answer the exercises beside the steps."</p>
                <Walk/>
            </header>
        }
        .into_any();
    }
    view! {
        <header class="intro">
            <h1>"Attention Explorer"</h1>
            <div class="intro-grid">
                <div class="intro-text">
                    <p class="lead" data-stat="what-for">
                        "Read “The dog fetched the ball and she was happy” and you know at once that “she” is the dog. "
                        "A word's meaning depends on the words around it, so a program that reads must work out which other words matter to each one: “she” has to find whom she means. "
                        "Attention is how language models such as GPT (the programs behind chatbots, which read and write text a word at a time) do it: each word looks at every other, decides how much each matters to it, and takes in a blend of what they carry."
                    </p>
                    <ol class="moves">
                        <li>"Each word becomes a row of numbers, its embedding."</li>
                        <li>"From it, each word makes a query (what am I looking for?), a key (what do I offer?) and a value (what do I pass on?)."</li>
                        <li>"Each query is scored against every key, and the softmax turns a row of scores into shares that add up to 1."</li>
                        <li>"Each word's new vector is the values blended in those shares."</li>
                    </ol>
                    <p>"Below is a real attention layer (one building block of such a model) with every number shown and editable, in the order it is computed. " {origin}</p>
                    <Walk/>
                </div>
                <div class="payoff">
                    {move || view! { <AttentionLines head=head.get() opening=true/> }}
                    <p class="story" data-stat="story">{move || state.story()}</p>
                    <p class="note">"Click another word on the left to see where it looks; change any number below and watch these lines move."</p>
                </div>
            </div>
        </header>
    }
    .into_any()
}
