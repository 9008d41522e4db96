//! What several commands share: the request file, the output's form and the validation limits;
//! and the reading of a provider name and an ml-commons version.

use std::path::PathBuf;

use agent_input::{Limits, ProviderId, register, validate};
use clap::Args;

#[derive(Debug, Args)]
pub(crate) struct Common {
    /// The request file; standard input when absent or `-`.
    #[arg(value_name = "FILE|-")]
    pub(crate) file: Option<PathBuf>,
    /// Print compact JSON instead of indented JSON.
    #[arg(long)]
    pub(crate) compact: bool,
    /// Accept a conversation ending with an assistant message (a prefill).
    #[arg(long)]
    pub(crate) allow_prefill: bool,
    /// Largest request body in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_body_bytes)]
    pub(crate) max_body_bytes: usize,
    /// Deepest JSON nesting.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_depth)]
    pub(crate) max_depth: usize,
    /// Most messages in one input.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_messages)]
    pub(crate) max_messages: usize,
    /// Most content blocks in one message or content-block input.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_blocks)]
    pub(crate) max_blocks: usize,
}

impl Common {
    pub(crate) fn options(&self) -> validate::Options {
        validate::Options {
            limits: Limits {
                max_body_bytes: self.max_body_bytes,
                max_depth: self.max_depth,
                max_messages: self.max_messages,
                max_blocks: self.max_blocks,
            },
            allow_prefill: self.allow_prefill,
            ml_commons: false,
        }
    }
}

pub(crate) fn parse_provider(raw: &str) -> Result<ProviderId, String> {
    ProviderId::parse(raw).ok_or_else(|| {
        let ids: Vec<&str> = ProviderId::ALL.iter().map(|p| p.as_str()).collect();
        format!("unknown provider '{raw}'; use one of {}", ids.join(", "))
    })
}

pub(crate) fn parse_version(raw: &str) -> Result<register::Version, String> {
    register::Version::parse(raw).ok_or_else(|| format!("'{raw}' is not a version; write X.Y, e.g. 3.4"))
}
