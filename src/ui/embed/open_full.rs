//! An embed's "Open in the full explorer": the link in the page, its address from a chunk with
//! the link's writer.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::full_url;
use crate::core::i18n::keys::exercises as say;
use crate::ui::lang::t;
use crate::ui::on_demand::{chunk, Loaded};
use crate::ui::state::use_app;

/// "Open in the full explorer": a link carrying the state, opening at the embed's first step.
/// Its address comes with the link's writer, a chunk of its own ([`open_full`]): until then the
/// link is the opening page's (written at build time, put on this page by www/boot.js).
#[component]
pub fn OpenFull() -> impl IntoView {
    let link = NodeRef::<leptos::html::A>::new();
    provide_context(OpenFullLink(link));
    view! {
        <p class="open-full">
            <a node_ref=link target="_blank" rel="noopener" data-action="open-full">{t(say::open_full)}</a>
            <Loaded load=open_full what=say::the_open_full quiet=true/>
        </p>
    }
}

/// The link [`OpenFull`] draws, for its chunk.
#[derive(Clone, Copy)]
struct OpenFullLink(NodeRef<leptos::html::A>);

chunk! {
    /// The address of an embed's link to the full explorer: it follows the model as the URL
    /// does (a moment after the last edit, so copying the link, a middle click or a screen
    /// reader gets the model as edited), and at once when a button is pressed on it or the
    /// focus comes to it.
    open_full => {
        let state = use_app();
        let link = expect_context::<OpenFullLink>().0;
        let first = state.page.numbered.and_then(|s| s.first().copied());
        let refresh = move || {
            if let Some(a) = link.get_untracked() {
                a.set_href(&full_url(state, first));
            }
        };
        Effect::new(move |_| {
            state.page.written.track();
            refresh();
        });
        if let Some(a) = link.get_untracked() {
            // Once per page: the listeners live as long as the link.
            let on = Closure::<dyn Fn()>::new(refresh).into_js_value();
            for event in ["pointerdown", "focus"] {
                a.add_event_listener_with_callback(event, on.unchecked_ref()).ok();
            }
        }
        ().into_any()
    }
}
