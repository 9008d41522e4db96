//! One folder per provider, each behind one `Adapter` (`adapter.rs`): its profile and
//! capabilities, request writer (`request`), importer (`import`), response reader (`response`),
//! stream decoder (`stream`), stop reasons and ml-commons facts (`mlcommons`), each built on the
//! shared steps in `common`. `openai` holds what both `OpenAI` APIs share. `id` is the one
//! provider enum, [`ProviderId`](crate::ProviderId); `dispatch` maps it to its adapter; `models` is the
//! capability table of model families and the model rules the adapters apply; the
//! public modules `convert`, `import`, `response`, `stream` and `register` call it.

pub(crate) mod adapter;
pub mod anthropic_messages;
pub mod bedrock_converse;
pub(crate) mod common;
pub(crate) mod dispatch;
pub mod gemini;
pub(crate) mod id;
pub mod models;
pub(crate) mod openai;
pub mod openai_chat;
pub mod openai_responses;
pub mod public;
