//! Validate the `OpenSearch` ml-commons *standard agent input* and convert it into model provider
//! requests.
//!
//! The input of `POST /_plugins/_ml/agents/<id>/_execute` is one of three forms — plain text,
//! an array of content blocks (text, image, video, document), or an array of role-based
//! messages — or the legacy `{"parameters": {"question": ...}}`. This crate reads any of them,
//! reports *every* problem with a stable code and a JSON Pointer path, extracts the `question`
//! exactly as ml-commons does, and builds the request body a provider accepts (AWS Bedrock
//! Converse), refusing — never silently dropping — what the provider cannot carry.
//!
//! ```
//! use agent_input::{ConvertOptions, ProviderId, validate};
//!
//! let text = r#"{"input": [
//!     {"type": "text", "text": "What is in this picture?"},
//!     {"type": "image", "source": {"type": "url", "format": "jpg", "data": "s3://pets/cat.jpg"}}
//! ]}"#;
//! let document = validate::parse(text, &Default::default()).unwrap();
//! let validation = validate::validate_request(&document, &Default::default());
//! let (request, report) = validation.into_result().unwrap();
//! assert_eq!(report.warnings[0].code.as_str(), "format_normalized"); // jpg → jpeg
//! assert_eq!(request.input.question(), "What is in this picture?\n");
//!
//! let converted = agent_input::convert::convert_to_value(
//!     ProviderId::BedrockConverse, &request, &ConvertOptions::default()).unwrap();
//! assert_eq!(
//!     converted.body["messages"][0]["content"][1],
//!     serde_json::json!({"image": {"format": "jpeg", "source": {"s3Location": {"uri": "s3://pets/cat.jpg"}}}})
//! );
//! ```
//!
//! Problems come back as data, never as panics:
//!
//! ```
//! use agent_input::validate;
//!
//! let value = serde_json::json!({"input": [{"type": "image",
//!     "source": {"type": "base64", "format": "bmp", "data": "Qk0="}}]});
//! let document = validate::document(&value); // or validate::parse(text, &limits)
//! let validation = validate::validate_request(&document, &Default::default());
//! let error = &validation.report.errors[0];
//! assert_eq!(error.code.as_str(), "unsupported_format");
//! assert_eq!(error.path.to_string(), "/input/0/source/format");
//! assert_eq!(error.expected, ["png", "jpeg", "gif", "webp"]);
//! ```

pub mod agui;
pub mod base64;
pub mod convert;
mod diagnostic;
pub mod field;
pub mod format;
pub mod image;
pub mod import;
pub mod json;
mod model;
pub mod options;
mod path;
pub mod providers;
pub mod register;
pub mod response;
#[cfg(feature = "schema")]
pub mod schema;
pub mod stream;
mod text;
pub mod units;
pub mod url;
pub mod validate;
mod version;

pub use convert::{ConvertOptions, Converted, Provider, ProviderId, ToolEntry, ToolSpec};
pub use diagnostic::{Code, Diagnostic, MAX_RECEIVED_CHARS, Report, Severity};
pub use model::{
    AgentInput, ContentBlock, Document, ExecuteRequest, InputType, Media, Message, MessageFields, ProviderFields,
    ProviderItem, ReasoningState, Role, Source, ToolCall,
};
pub use path::{Path, Segment};
pub use providers::models;
pub use validate::{Limits, Validation, ValidationReport};

/// Parses, validates and converts request text in one call; the warnings of every step are
/// returned together.
///
/// # Errors
/// The first step's errors (and warnings so far) when the text is not JSON, the request is
/// invalid, or the provider cannot take it.
pub fn convert_str(
    text: &str,
    provider: ProviderId,
    options: &ConvertOptions,
    validation: &validate::Options,
) -> Result<Converted<String>, Report> {
    let value = validate::parse(text, &validation.limits)?;
    convert_parsed(&value, provider, options, validation, false)
}

/// Like [`convert_str`] for an already parsed request body.
///
/// # Errors
/// As [`convert_str`].
pub fn convert_parsed(
    value: &json::Document<'_>,
    provider: ProviderId,
    options: &ConvertOptions,
    validation: &validate::Options,
    pretty: bool,
) -> Result<Converted<String>, Report> {
    let (request, mut report) = validate::validate_request(value, validation).into_result()?;
    match convert::convert_to_string(provider, &request, options, pretty) {
        Ok(converted) => {
            report.warnings.extend(converted.warnings);
            Ok(Converted::new(converted.body, report.warnings))
        }
        Err(errors) => {
            report.extend(errors);
            Err(report)
        }
    }
}
