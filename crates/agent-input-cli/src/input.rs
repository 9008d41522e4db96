//! Reading the command's input: a file or standard input, under a size limit, parsed into a
//! document; and the failure that is not about the input.

use std::io::{self, Read};
use std::path::PathBuf;

use agent_input::json::Document;
use agent_input::{Diagnostic, Limits, Report, validate};

/// A failure that is not about the input: exit 2.
pub(crate) struct UsageError(pub(crate) String);

/// The request bytes, or only the total size when it is over the limit: an oversized body is
/// counted (so the report gives its real size) but never held in memory.
pub(crate) enum Input {
    Bytes(Vec<u8>),
    TooLarge(u64),
}

pub(crate) fn read_input(file: Option<&PathBuf>, limit: usize) -> Result<Input, UsageError> {
    fn read_from(mut reader: impl Read, limit: usize) -> io::Result<Input> {
        let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
        let mut bytes = Vec::new();
        (&mut reader).take(cap).read_to_end(&mut bytes)?;
        if bytes.len() <= limit {
            return Ok(Input::Bytes(bytes));
        }
        let rest = io::copy(&mut reader, &mut io::sink())?;
        Ok(Input::TooLarge(bytes.len() as u64 + rest))
    }
    let result = match file {
        Some(path) if path.as_os_str() != "-" => std::fs::File::open(path)
            .and_then(|file| match file.metadata() {
                Ok(meta) if meta.is_file() && meta.len() > limit as u64 => Ok(Input::TooLarge(meta.len())),
                _ => read_from(file, limit),
            })
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
        _ => read_from(io::stdin().lock(), limit),
    };
    result.map_err(|e| UsageError(format!("cannot read the input: {e}")))
}

/// An agent's `parameters_schema` from a JSON file. A file that cannot be read or is not JSON is a
/// usage error; a schema that is JSON but not a usable JSON Schema is reported as `invalid_schema`.
pub(crate) fn read_schema(path: &std::path::Path) -> Result<serde_json::Value, UsageError> {
    let text = std::fs::read_to_string(path).map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| UsageError(format!("{} is not JSON: {e}", path.display())))
}

/// Parses the input text; problems (not JSON, too large, too deep) come back as a report.
pub(crate) fn parse<'a>(input: &'a Input, options: &validate::Options) -> Result<Document<'a>, Report> {
    let bytes = match input {
        Input::Bytes(bytes) => bytes,
        Input::TooLarge(size) => {
            let limit = options.limits.max_body_bytes;
            let mut report = Report::default();
            report.push(
                Diagnostic::new(
                    agent_input::Code::TooLarge,
                    agent_input::Path::root(),
                    format!("the request is {size} bytes, over the limit of {limit} bytes"),
                )
                .limit(limit as u64, *size),
            );
            return Err(report);
        }
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let mut report = Report::default();
            report.push(Diagnostic::new(
                agent_input::Code::InvalidJson,
                agent_input::Path::root(),
                format!("the request is not UTF-8 text (invalid byte at offset {})", error.valid_up_to()),
            ));
            return Err(report);
        }
    };
    validate::parse(text, &options.limits)
}

pub(crate) fn read_json_file(file: Option<&PathBuf>, what: &str) -> Result<serde_json::Value, UsageError> {
    let Input::Bytes(bytes) = read_input(file, Limits::default().max_body_bytes)? else {
        return Err(UsageError(format!("the {what} is larger than 64 MiB")));
    };
    serde_json::from_slice(&bytes).map_err(|e| UsageError(format!("the {what} is not JSON: {e}")))
}
