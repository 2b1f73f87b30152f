//! The √dₖ lab: pick dₖ and a seed; see the variance of q·k and one softmax row under each
//! scaling, beside the theory, and the variance against dₖ as a log–log plot.

mod plot;

use std::time::Duration;

use leptos::html::P;
use leptos::prelude::*;

use crate::core::i18n::keys;
use crate::core::teaching::sqrt_dk::{
    dk_at, slider_position, theory_variance, RowStats, Sample, DK_DEFAULT, DK_MAX, DK_MIN, PAIRS,
    ROWS, ROW_LEN, SCALINGS, SEED_DEFAULT,
};
use crate::ui::fields::{accept, IntegerField};
use crate::ui::in_view::near;
use crate::ui::labs::frame::{LabText, RangeField, Stat};
use crate::ui::lang::{symbol, t, word};

use plot::VariancePlot;

/// One choice's figures at the current dₖ.
#[derive(Clone, Copy, PartialEq)]
struct Figures {
    variance: f64,
    theory: f64,
    row: RowStats,
}

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: keys::labs::sqrt_dk_title,
    short_title: keys::labs::sqrt_dk_short_title,
    hint: keys::labs::sqrt_dk_hint,
};

/// What the learner set in the lab: kept by the page (`labs::render` provides it), so that it
/// stays while the lab's body leaves and comes back with its step.
#[derive(Clone, Copy)]
pub struct Setting {
    /// dₖ.
    pub dk: RwSignal<usize>,
    /// The sample's seed.
    pub seed: RwSignal<u32>,
}

impl Default for Setting {
    fn default() -> Self {
        Setting {
            dk: RwSignal::new(DK_DEFAULT),
            seed: RwSignal::new(SEED_DEFAULT),
        }
    }
}

/// The lab's body (its frame, `LabSection`, is the page's: it shows while this loads).
#[component]
pub fn SqrtDkLab() -> impl IntoView {
    let Setting { dk, seed: lab_seed } = use_context().unwrap_or_default();
    let sample = RwSignal::new(None::<Sample>);
    let explain = NodeRef::<P>::new();
    let seen = near(explain, "200% 0px");
    // Drawing 4 million normals takes about 150 ms: not while the page opens (only once the lab
    // is within two screens, so that it is drawn before it is scrolled to), after the page has painted, and only for the seed still asked for when
    // the timer fires (not once per digit typed).
    Effect::new(move |_| {
        if !seen.get() {
            return;
        }
        let seed = lab_seed.get();
        set_timeout(
            // The lab may have left the page (its step hidden) before the timer fires.
            move || {
                let Some(drawn) = sample.try_with_untracked(|s| s.as_ref().map(Sample::seed))
                else {
                    return;
                };
                if lab_seed.get_untracked() == seed && drawn != Some(seed) {
                    sample.try_set(Some(Sample::draw(seed)));
                }
            },
            Duration::ZERO,
        );
    });
    let figures = Memo::new(move |_| {
        let dk = dk.get();
        sample.with(|s| {
            s.as_ref().map(|s| {
                SCALINGS.map(|(scale, _)| Figures {
                    variance: s.variance(dk, scale),
                    theory: theory_variance(dk, scale),
                    row: s.row_stats(dk, scale),
                })
            })
        })
    });
    let size = move || Sample::size(dk.get());

    view! {
        <>
            <p class="explain" node_ref=explain>
                {move || word(&keys::labs::dk_what(ROW_LEN))}
            </p>
            <div class="lab-controls">
                <RangeField
                    label=keys::labs::dk_log_scale
                    control="lab_dk_slider"
                    max=slider_position(DK_MAX)
                    // Whole powers of two: an arrow key doubles or halves dₖ (64 → 1024 in four
                    // presses); any other dₖ is typed in the field beside it.
                    step=1.0
                    value=Signal::derive(move || slider_position(dk.get()))
                    valuetext=Signal::derive(move || format!("dₖ = {}", dk.get()))
                    on_input=Callback::new(move |position| dk.set(dk_at(position)))
                />
                <IntegerField
                    label="dₖ"
                    control="lab_dk"
                    min=DK_MIN as u64
                    max=DK_MAX as u64
                    value=Signal::derive(move || dk.get() as u64)
                    on_change=accept(move |v| dk.set(v as usize))
                />
                <IntegerField
                    label=keys::labs::seed_label
                    control="lab_seed"
                    min=0
                    max=u32::MAX.into()
                    value=Signal::derive(move || lab_seed.get().into())
                    on_change=accept(move |v| lab_seed.set(v as u32))
                />
            </div>
            <p class="note">
                {move || word(&keys::labs::dk_sample(
                    lab_seed.get(),
                    PAIRS,
                    DK_MAX,
                    dk.get(),
                    size() / PAIRS,
                    size(),
                    ROWS,
                    ROW_LEN,
                    1.0 / ROW_LEN as f64,
                    crate::core::text::fmt_significant((ROW_LEN as f64).ln(), 4),
                ))}
            </p>
            <Show
                when=move || figures.with(Option::is_some)
                fallback=|| view! { <p class="note" role="status">{t(keys::labs::drawing)}</p> }
            >
                <FiguresTable figures/>
                <VariancePlot sample dk/>
            </Show>
            <p class="explain">
                {t(keys::labs::dk_why)}
            </p>
        </>
    }
}

/// Each choice's measured variance beside the theory, and its softmax row.
#[component]
fn FiguresTable(figures: Memo<Option<[Figures; 3]>>) -> impl IntoView {
    let pick = move |i: usize, f: fn(&Figures) -> f64| {
        Signal::derive(move || figures.with(|all| all.as_ref().map_or(f64::NAN, |all| f(&all[i]))))
    };
    view! {
        <div class="scroll">
            <table class="lab lab-figures">
                <caption>{t(keys::labs::each_choice)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t(keys::labs::divide_by)}</th>
                        <th scope="col">{t(keys::labs::variance_measured)}</th>
                        <th scope="col">{t(keys::labs::theory)}</th>
                        <th scope="col">{t(keys::labs::largest_weight)}</th>
                        <th scope="col">{t(keys::labs::entropy_heading)}</th>
                        <th scope="col">{t(keys::labs::gradient)}</th>
                    </tr>
                </thead>
                <tbody>
                    {SCALINGS
                        .iter()
                        .enumerate()
                        .map(|(i, &(scale, theory))| {
                            let label = scale.label();
                            // `var_sqrt_dk`, `entropy_none`, …: the figure's name, then the scaling's key.
                            let stat = |figure: &str| format!("{figure}_{}", scale.key());
                            view! {
                                <tr class=format!("choice-{}", scale.key())>
                                    <th scope="row">{symbol(label)}</th>
                                    <td><Stat name=stat("var") value=pick(i, |f| f.variance)/></td>
                                    <td>
                                        {theory} " = "
                                        <Stat name=stat("theory") value=pick(i, |f| f.theory)/>
                                    </td>
                                    <td><Stat name=stat("max_weight") value=pick(i, |f| f.row.max_weight)/></td>
                                    <td><Stat name=stat("entropy") value=pick(i, |f| f.row.entropy)/></td>
                                    <td><Stat name=stat("jacobian") value=pick(i, |f| f.row.jacobian_norm)/></td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}
