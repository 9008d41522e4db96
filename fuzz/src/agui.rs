//! The AG-UI mapping under arbitrary JSON: `from_agui` never panics, every diagnostic's path
//! points into the AG-UI body, and what `to_agui` writes reads back to the same messages.

use agent_input::agui::{from_agui, is_run_agent_input, to_agui};
use agent_input::validate::Options;
use agent_input::{AgentInput, Code, Diagnostic};
use serde_json::Value;

/// Whether `diagnostic`'s path resolves in `body`: the value itself, or for a missing key or
/// item its parent.
fn resolves(body: &Value, diagnostic: &Diagnostic) -> bool {
    let pointer = diagnostic.path.to_string();
    if body.pointer(&pointer).is_some() {
        return true;
    }
    let parent = &pointer[..pointer.rfind('/').unwrap_or(0)];
    matches!(diagnostic.code, Code::MissingField | Code::EmptyContent) && body.pointer(parent).is_some()
}

/// Runs the invariants on one JSON body.
pub fn check(body: &Value) {
    let detected = is_run_agent_input(body);
    let options = Options::default();
    let run = match from_agui(body, &options) {
        Ok(run) => run,
        Err(report) => {
            assert!(!report.errors.is_empty(), "refused without an error");
            for diagnostic in report.errors.iter().chain(&report.warnings) {
                assert!(resolves(body, diagnostic), "{diagnostic:?} does not point into {body}");
            }
            return;
        }
    };
    assert!(detected, "read a body that is not AG-UI input: {body}");
    for diagnostic in &run.warnings {
        assert!(resolves(body, diagnostic), "{diagnostic:?} does not point into {body}");
    }
    let Some(input) = run.input else { return };
    let AgentInput::Messages(messages) = input else { panic!("from_agui gave {input:?}") };
    let back = match to_agui(&messages, "m") {
        Ok(back) => back,
        Err(report) => {
            for error in &report.errors {
                assert!(
                    matches!(error.code, Code::MediaNotAllowedInRole | Code::RoleNotSupported),
                    "unexpected to_agui error {error:?}"
                );
            }
            return;
        }
    };
    // What to_agui writes is AG-UI input that reads back, and writing that again changes nothing.
    let mut again = body.clone();
    again["messages"] = serde_json::to_value(&back).expect("AG-UI messages serialize");
    let reread = from_agui(&again, &options).unwrap_or_else(|report| panic!("{report:?}\n{again}"));
    let Some(AgentInput::Messages(reread)) = reread.input else { panic!("no messages read back from {again}") };
    assert_eq!(to_agui(&reread, "m").expect("written twice"), back);
}
