//! The agent-input playground: build a standard agent input, see its validation and the
//! provider request live, and execute it against a backend. Leptos, client-side rendered; the
//! core crate runs in the page. See web/README.md.
//!
//! Layers, each using only those below it: `model` (pure logic, tested natively), `browser`
//! (bindings to JavaScript and the page's environment), `state` (the signals), `view` (the
//! components).

// Browser sizes and times are f64; the casts from them are checked where they matter.
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
// The state handles (`Editor` holds the `Analyzer`) are Copy bundles of signal ids, passed by
// value as Leptos passes signals; natively they are a little over clippy's 256 bytes.
#![allow(clippy::large_types_passed_by_value)]

mod browser;
mod model;
mod state;
mod view;

/// Talc, not Rust's default dlmalloc, as in the npm package's module: a sixth of the code, growing
/// the memory as dlmalloc does (docs/decisions/npm.md, "The base module's size"). The page is
/// single-threaded.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    leptos::mount::mount_to_body(view::app::App);
}
