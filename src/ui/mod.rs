//! The Leptos front end: a thin layer of views over [`crate::core`]. No maths here.
//!
//! `app` owns the state; `matrix_table` and `cell_input` render every matrix; `steps/` holds one
//! component per pipeline step, `labs/` the experiments beside them, `walk` the guided walk; `share` is the only code that touches the URL and storage, `embed` the only one that talks to a parent page.

pub mod api;
pub mod app;
pub mod cell_input;
pub mod controls;
pub mod embed;
pub mod export;
pub mod heatmap;
pub mod in_view;
pub mod keyboard;
pub mod labs;
pub mod lines;
pub mod matrix_table;
pub mod matrix_view;
pub mod panic;
pub mod share;
pub mod steps;
pub mod theme;
pub mod walk;

/// Installs the panic hook and mounts the app on `<body>`.
pub fn start() {
    panic::install();
    leptos::mount::mount_to_body(app::App);
}
