//! The Leptos front end (see issue 3).
