//! The agent-input playground: build a standard agent input, see its validation and the
//! provider request live, and execute it against a backend. Leptos, client-side rendered; the
//! core crate runs in the page. See web/README.md.

// Browser sizes and times are f64; the casts from them are checked where they matter.
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

mod analysis;
mod app;
mod backend;
mod examples;
mod forms;
mod jsonpos;
mod media;
mod model;
mod schema;
mod share;
mod state;

fn main() {
    leptos::mount::mount_to_body(app::App);
}
