//! Exercises a teacher puts in a link: compute a cell (`ask=`), predict a row before seeing it
//! (`predict=`), reach a goal by editing (`goal=`, with `lock=` naming what stays fixed). Their
//! parameters, the checking rule, the hints, each one's progress and the result a page reports
//! (with its xAPI statement) live here; the page only shows them.

mod check;
mod cover;
mod kinds;
mod params;
mod progress;
mod result;

pub use check::{check, hint, is_right, largest, predict, read_answer, worked, Verdict};
pub use cover::Cover;
pub use kinds::{gives_away, leaks, Bound, CellRef, Exercise, Kind, PREDICTED, TRIES};
pub use params::{lockable, Exercises};
pub use progress::{read_progress, write_progress, Outcome, Progress};
pub use result::{result_json, Expected};
