//! `_execute`: validate, continue the memory, convert, call the provider, store the turn.

use std::sync::Arc;

use agent_input::response::{ExecutionResult, ProviderResponse};
use agent_input::{
    AgentInput, Code, ContentBlock, ConvertOptions, Diagnostic, ExecuteRequest, Message, Path, Report, Segment,
    validate,
};
use serde_json::{Value, json};

use crate::error::{ApiError, ErrorKind};
use crate::history::HistoryCache;
use crate::media::{self, NewMessage};
use crate::provider::{self, Outgoing, ProviderClient};
use crate::state::{AppState, new_id};
use crate::store::{Pin, Store, StoreError};

/// Everything decided before the provider is called.
struct Prepared {
    /// The memory continued, if any.
    memory_id: Option<String>,
    /// The whole conversation sent: stored history, then the new input.
    conversation: Vec<Message<'static>>,
    /// How many messages the memory held when the turn was prepared.
    known: i64,
    /// Their bytes, as stored.
    history_bytes: usize,
    /// The provider request.
    outgoing: Outgoing,
    /// Warnings of validation and conversion.
    warnings: Vec<Diagnostic>,
    /// `parameters.verbose`: the answer carries the whole conversation.
    verbose: bool,
    /// The continued memory, kept from eviction.
    pin: Option<Pin>,
}

/// What a turn is asked to run.
#[derive(Debug, Default)]
pub struct TurnInput {
    /// The request body: the standard envelope.
    pub body: Vec<u8>,
    /// Whether a `parameters.memory_id` that names no memory starts one under that id (an AG-UI
    /// `threadId`) rather than being a 404.
    pub create_memory: bool,
    /// Tools the request brings (AG-UI `tools`), after the agent's own.
    pub tools: Vec<agent_input::convert::ToolSpec>,
}

impl TurnInput {
    /// A standard `_execute` body.
    pub fn standard(body: Vec<u8>) -> Self {
        Self { body, ..Self::default() }
    }
}

/// A turn validated and converted, ready to be sent; [`Turn::store`] records its answer.
pub struct Turn {
    /// The agent.
    pub agent_id: String,
    /// Its `model_provider`, for messages.
    pub provider_name: String,
    /// Its model client.
    pub client: Arc<dyn ProviderClient>,
    /// The memory continued, or the one this turn will start.
    pub memory_id: String,
    /// The provider request (taken by the caller to send it).
    pub outgoing: Outgoing,
    /// Warnings of validation and conversion.
    pub warnings: Vec<Diagnostic>,
    /// `parameters.verbose`: the answer carries the whole conversation.
    pub verbose: bool,
    /// The conversation sent; the messages after the first `known` are the new input.
    conversation: Arc<Vec<Message<'static>>>,
    /// The new input's stored form, hashed while the provider answers.
    stored_input: tokio::task::JoinHandle<Result<Vec<NewMessage>, serde_json::Error>>,
    known: i64,
    history_bytes: usize,
    /// Held until the turn is stored or dropped: a memory a turn uses is never evicted.
    _pin: Option<Pin>,
}

impl std::fmt::Debug for Turn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Turn")
            .field("agent_id", &self.agent_id)
            .field("memory_id", &self.memory_id)
            .finish_non_exhaustive()
    }
}

/// A turn stored: the message id of its first new message and the execution result.
#[derive(Debug)]
pub struct Stored {
    /// The memory.
    pub memory_id: String,
    /// Id of the turn's first stored message.
    pub parent: i64,
    /// The answer (`final_response`), its stop reason and usage; `conversation`, the whole
    /// conversation with the answer, only for a verbose turn (empty otherwise).
    pub result: ExecutionResult,
}

impl Stored {
    /// The answer's text blocks, one per line.
    pub fn text(&self) -> String {
        self.result
            .final_response
            .iter()
            .flat_map(|message| &message.content)
            .filter_map(|block| match block {
                ContentBlock::Text(text) => Some(text.as_ref()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The `_execute` answer in ml-commons' shape: `memory_id`, `parent_message_id` and
    /// `response` (the answer's text, with `dataAsMap`: the new assistant message as
    /// `final_response`, stop reason, usage, `warnings`; the whole `conversation` only when
    /// `verbose`).
    pub fn answer(&self, warnings: &[Diagnostic], verbose: bool) -> Value {
        let answer_text = self.text();
        let mut data = serde_json::to_value(&self.result).unwrap_or(Value::Null);
        if !verbose && let Value::Object(map) = &mut data {
            map.shift_remove("conversation");
        }
        data["warnings"] = serde_json::to_value(warnings).unwrap_or(Value::Null);
        json!({"inference_results": [{"output": [
            {"name": "memory_id", "result": self.memory_id},
            {"name": "parent_message_id", "result": self.parent.to_string()},
            {"name": "response", "result": answer_text, "dataAsMap": data},
        ]}]})
    }
}

/// Runs one turn of `agent_id` on the request `body`, returning the ml-commons response.
///
/// # Errors
/// 404 for an unknown agent or memory, 400 listing every problem of the input, the provider's
/// failures mapped by [`provider::ProviderError::into_api_error`].
pub async fn execute(state: &AppState, agent_id: String, body: Vec<u8>) -> Result<Value, ApiError> {
    let mut turn = begin(state, agent_id, TurnInput::standard(body)).await?;
    let outgoing = std::mem::take(&mut turn.outgoing);
    let response = turn.client.send(outgoing).await.map_err(|e| e.into_api_error(&turn.provider_name))?;
    let warnings = std::mem::take(&mut turn.warnings);
    let verbose = turn.verbose;
    Ok(turn.store(state, response).await?.answer(&warnings, verbose))
}

/// Everything before the provider call: the agent, its client, the input validated and joined to
/// its memory, and the provider request built.
///
/// # Errors
/// As [`execute`], but for the provider's.
pub async fn begin(state: &AppState, agent_id: String, input: TurnInput) -> Result<Turn, ApiError> {
    let lookup = agent_id.clone();
    let agent =
        state.store.call(move |store| store.agent(&lookup)).await.map_err(storage)?.ok_or_else(|| {
            ApiError::not_found(format!("Failed to find agent with the provided agent id: {agent_id}"))
        })?;
    let client: Arc<dyn ProviderClient> = Arc::from(provider::for_model(&agent.model, &state.clients)?);
    let mut options = provider::convert_options(&agent.model.model_parameters).map_err(ApiError::invalid)?;
    // The agent's registered model: its rules are checked before any provider call.
    if options.model.is_none() && !agent.model.model_id.trim().is_empty() {
        options.model = Some(agent.model.model_id.trim().to_owned());
    }
    for tool in input.tools {
        if !options.tools.iter().any(|known| known.spec().is_some_and(|known| known.name == tool.name)) {
            options.tools.push(tool.into());
        }
    }
    let mut limits = validate::Limits { max_body_bytes: state.config.max_body_bytes, ..validate::Limits::default() };
    let mut body = input.body;
    if crate::fetch::needs_inlining(&agent.model.model_provider) {
        // What the fetched files may add: the room the body limit leaves, in raw bytes (base64
        // makes 4 characters of 3 bytes).
        let room = state.config.max_body_bytes.saturating_sub(body.len()) / 4 * 3;
        let inlined = state.fetcher.inline(&body, room).await?;
        if let Some(rewritten) = inlined.body {
            body = rewritten;
            limits.max_body_bytes = limits.max_body_bytes.saturating_add(inlined.added);
        }
    }

    let memories = Memories {
        store: state.store.clone(),
        cache: state.history.clone(),
        caps: MemoryCaps { bytes: state.config.max_memory_bytes, messages: state.config.max_memory_messages },
        create: input.create_memory,
    };
    let preparing = Arc::clone(&client);
    let schema = agent.parameters_schema.clone();
    let prepared = tokio::task::spawn_blocking(move || {
        prepare(&memories, &body, limits, &options, preparing.as_ref(), schema.as_ref())
    })
    .await
    .map_err(|e| ApiError::internal(format!("the request could not be prepared: {e}")))??;

    let Prepared { memory_id, conversation, known, history_bytes, outgoing, warnings, verbose, pin } = prepared;
    // Hashing megabytes of media for the store needs nothing from the provider: it runs on
    // another thread while the provider answers.
    let conversation = Arc::new(conversation);
    let stored_input = {
        let conversation = Arc::clone(&conversation);
        let from = usize::try_from(known).unwrap_or(usize::MAX);
        tokio::task::spawn_blocking(move || {
            conversation.get(from..).unwrap_or_default().iter().map(media::stored).collect()
        })
    };
    Ok(Turn {
        agent_id: agent.id,
        provider_name: agent.model.model_provider,
        client,
        memory_id: memory_id.unwrap_or_else(new_id),
        outgoing,
        warnings,
        verbose,
        conversation,
        stored_input,
        known,
        history_bytes,
        _pin: pin,
    })
}

impl Turn {
    /// Appends the input and `response` to the memory, unless another turn was stored in between
    /// (then nothing is: a 409).
    ///
    /// # Errors
    /// The store fails, or the memory changed since [`begin`].
    pub async fn store(self, state: &AppState, response: ProviderResponse) -> Result<Stored, ApiError> {
        let Self { agent_id, memory_id, conversation, stored_input, known, history_bytes, verbose, _pin, .. } = self;
        let mut new_messages = stored_input
            .await
            .map_err(|e| ApiError::internal(format!("the input could not be stored: {e}")))?
            .map_err(|e| ApiError::internal(format!("the input could not be stored: {e}")))?;
        let answer = media::stored(&response.message)
            .map_err(|e| ApiError::internal(format!("the answer could not be stored: {e}")))?;
        new_messages.push(answer);
        let memory_bytes = history_bytes + new_messages.iter().map(|m| m.bytes).sum::<usize>();
        let memory = memory_id.clone();
        let parent = state
            .store
            .call(move |store| store.append(&memory, &agent_id, known, &new_messages))
            .await
            .map_err(storage)?
            .ok_or_else(|| {
                ApiError::new(
                    ErrorKind::VersionConflict,
                    format!(
                        "memory {memory_id} received another turn while this one ran; this turn was not stored — send it again to continue from the new history"
                    ),
                )
            })?;
        // The hashing task has ended, so the conversation is not shared any more: no copy.
        let conversation = Arc::try_unwrap(conversation).unwrap_or_else(|shared| shared.as_ref().clone());
        let mut result = ExecutionResult::answered(conversation, response);
        let conversation = if verbose { result.conversation.clone() } else { std::mem::take(&mut result.conversation) };
        state.history.put(&memory_id, conversation, memory_bytes);
        Ok(Stored { memory_id, parent, result })
    }
}

#[allow(clippy::needless_pass_by_value)] // used as map_err(storage)
fn storage(error: StoreError) -> ApiError {
    ApiError::internal(error.to_string())
}

/// The largest memory a turn may continue (`--max-memory-bytes`, `--max-memory-messages`).
#[derive(Debug, Clone, Copy)]
struct MemoryCaps {
    bytes: usize,
    messages: usize,
}

impl MemoryCaps {
    /// A 400 when a memory holding `held` messages of `held_bytes` cannot take `adding` more of
    /// `adding_bytes` (the answer to come counts as one message).
    fn check(
        self,
        id: &str,
        (held, held_bytes): (usize, usize),
        adding: usize,
        adding_bytes: usize,
    ) -> Result<(), ApiError> {
        let count = held.saturating_add(adding).saturating_add(1);
        let bytes = held_bytes.saturating_add(adding_bytes);
        let (what, limit, actual) = if count > self.messages {
            ("messages", self.messages, count)
        } else if bytes > self.bytes {
            ("bytes", self.bytes, bytes)
        } else {
            return Ok(());
        };
        Err(ApiError::invalid_one(
            Diagnostic::new(
                Code::TooLarge,
                Path::root().key("parameters").key("memory_id"),
                format!(
                    "memory {id} is full: this turn would bring it to {actual} {what}, over the gateway's limit of \
                     {limit}; start a new memory by sending the request without parameters.memory_id (include \
                     the context the model still needs in the input)"
                ),
            )
            .limit(limit as u64, actual as u64),
        ))
    }
}

/// Where a turn's history comes from, and how large it may grow.
struct Memories {
    store: Store,
    cache: HistoryCache,
    caps: MemoryCaps,
    /// An unknown memory id starts a memory under that id ([`TurnInput::create_memory`]).
    create: bool,
}

/// Validates the request, loads and appends the memory, and has the provider build its request.
fn prepare(
    memories: &Memories,
    body: &[u8],
    limits: validate::Limits,
    options: &ConvertOptions,
    client: &dyn ProviderClient,
    schema: Option<&Value>,
) -> Result<Prepared, ApiError> {
    let text = crate::error::body_text(body)?;
    let validation_options = validate::Options { limits, ..validate::Options::default() };
    let document = validate::parse(text, &limits).map_err(ApiError::invalid)?;
    let mut validation = validate::validate_request(&document, &validation_options);
    if schema.is_some() {
        validation = validation.with_prompt_as_input(); // the prompt-only request
    }
    let (mut request, report) = validation.into_result().map_err(ApiError::invalid)?;
    if let Some(schema) = schema {
        // The parameters are checked, and the prompt formatted, before anything is converted.
        crate::schema::apply(&mut request, schema).map_err(ApiError::invalid)?;
    }
    let mut warnings = report.warnings;

    let memory_id = match request.parameters.get("memory_id") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) if !id.trim().is_empty() => Some(id.trim().to_string()),
        Some(other) => {
            return Err(ApiError::invalid_one(
                Diagnostic::new(
                    Code::InvalidFieldType,
                    Path::root().key("parameters").key("memory_id"),
                    "memory_id must be the non-empty id of a memory returned by an earlier _execute",
                )
                .received(other.to_string()),
            ));
        }
    };
    let verbose = matches!(request.parameters.get("verbose"), Some(Value::Bool(true)))
        || matches!(request.parameters.get("verbose"), Some(Value::String(s)) if s.eq_ignore_ascii_case("true"));
    let input_path = request.input_path.clone();
    let input_kind = request.input.input_type();
    let new_messages: Vec<Message<'_>> = request.input.clone().into_messages();

    let Memories { store, cache, caps, create } = memories;
    // Pinned before it is read: from here on, eviction leaves this memory alone.
    let pin = memory_id.as_deref().map(|id| store.pin(id));
    let mut history_bytes = 0;
    let existing = match &memory_id {
        Some(id) if store.memory(id).map_err(storage)?.is_some() => Some(id),
        Some(id) if !create => return Err(memory_missing(store, id)),
        _ => None,
    };
    let history = match existing {
        None => Vec::new(),
        Some(id) => {
            // The cap is checked from the sizes SQLite keeps, before the history is loaded.
            let adding_bytes = new_messages.iter().map(json_len).sum();
            let size = store.memory_size(id).map_err(storage)?;
            caps.check(id, size, new_messages.len(), adding_bytes)?;
            history_bytes = size.1;
            // A history this process validated is used as it is: no reading, no validating.
            if let Some(history) = cache.get(id, size.0)
                && history.len() + new_messages.len() <= limits.max_messages
            {
                let remap = Remap { history: history.len(), input_path: &input_path, input_kind };
                let mut messages = Vec::with_capacity(history.len() + new_messages.len());
                messages.extend(history.iter().cloned());
                messages.extend(new_messages.into_iter().map(Message::into_owned));
                let conversation = ExecuteRequest {
                    input: AgentInput::Messages(messages),
                    parameters: serde_json::Map::new(),
                    legacy_question: false,
                    input_path: Path::root().key("input"),
                    source_text: None,
                };
                let outgoing =
                    client.prepare(&conversation, options).map_err(|r| ApiError::invalid(remap.report(r)))?;
                warnings.extend(outgoing.warnings.iter().map(|d| remap.diagnostic(d.clone())));
                let messages = match conversation.input {
                    AgentInput::Messages(messages) => messages,
                    other => other.into_messages(),
                };
                let known = i64::try_from(history.len()).unwrap_or(i64::MAX);
                return Ok(Prepared {
                    memory_id,
                    conversation: messages,
                    known,
                    history_bytes,
                    outgoing,
                    warnings,
                    verbose,
                    pin,
                });
            }
            store.messages(id).map_err(storage)?
        }
    };

    if history.is_empty() {
        // The provider's checks (its limits among them) before the work of writing the input out.
        let outgoing = client.prepare(&request, options).map_err(ApiError::invalid)?;
        warnings.extend(outgoing.warnings.iter().cloned());
        let conversation = new_messages.into_iter().map(Message::into_owned).collect();
        return Ok(Prepared { memory_id, conversation, known: 0, history_bytes, outgoing, warnings, verbose, pin });
    }

    // The stored history and the new input (whole, not its stored form), validated and
    // converted as one conversation.
    let input = new_messages
        .iter()
        .map(serde_json::to_string)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ApiError::internal(format!("the input could not be written: {e}")))?;
    let mut combined = String::with_capacity(
        history.iter().map(|m| m.message.len() + 1).sum::<usize>()
            + input.iter().map(|m| m.len() + 1).sum::<usize>()
            + 16,
    );
    combined.push_str("{\"input\":[");
    for (i, message) in history.iter().map(|m| m.message.as_str()).chain(input.iter().map(String::as_str)).enumerate() {
        if i > 0 {
            combined.push(',');
        }
        combined.push_str(message);
    }
    combined.push_str("]}");
    let remap = Remap { history: history.len(), input_path: &input_path, input_kind };
    let combined_limits = validate::Limits { max_body_bytes: usize::MAX, ..limits };
    let document = validate::parse(&combined, &combined_limits).map_err(|r| ApiError::invalid(remap.report(r)))?;
    let (conversation, _) = validate::validate_request(
        &document,
        &validate::Options { limits: combined_limits, ..validate::Options::default() },
    )
    .into_result()
    .map_err(|r| ApiError::invalid(remap.report(r)))?;
    let outgoing = client.prepare(&conversation, options).map_err(|r| ApiError::invalid(remap.report(r)))?;
    warnings.extend(outgoing.warnings.iter().map(|d| remap.diagnostic(d.clone())));
    let messages = match conversation.input.into_owned() {
        AgentInput::Messages(messages) => messages,
        other => other.into_messages(),
    };
    let known = i64::try_from(history.len()).unwrap_or(i64::MAX);
    Ok(Prepared { memory_id, conversation: messages, known, history_bytes, outgoing, warnings, verbose, pin })
}

/// Bytes of a message's JSON, counted without writing it anywhere.
fn json_len(message: &Message<'_>) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, message);
    count.0
}

/// The 404 for a memory that is not there: saying when and why, if it was evicted.
fn memory_missing(store: &Store, id: &str) -> ApiError {
    match store.evicted(id) {
        Ok(Some(evicted)) => ApiError::not_found(evicted_reason(id, &evicted)),
        _ => ApiError::not_found(format!("Failed to find memory with the provided memory id: {id}")),
    }
}

/// Why an evicted memory is gone, and what to do.
pub fn evicted_reason(id: &str, evicted: &crate::store::Evicted) -> String {
    let why = if evicted.reason == "expired" {
        "it was not used for longer than the gateway's --memory-ttl"
    } else {
        "it was the least recently used when the database reached the gateway's --max-db-bytes"
    };
    format!(
        "memory {id} was evicted at {} ms since the epoch: {why}; start a new conversation by sending the \
         request without parameters.memory_id",
        evicted.evicted_ms
    )
}

/// Maps paths into the combined conversation (`/input/i/...`) back to what the caller sent:
/// the new input (`/input/...`, as the request wrote it) or the stored history
/// (`/memory/<i>/...`, `i` counting the stored messages from 0).
struct Remap<'p> {
    history: usize,
    input_path: &'p Path,
    input_kind: agent_input::InputType,
}

impl Remap<'_> {
    fn report(&self, report: Report) -> Report {
        Report {
            errors: report.errors.into_iter().map(|d| self.diagnostic(d)).collect(),
            warnings: report.warnings.into_iter().map(|d| self.diagnostic(d)).collect(),
        }
    }

    fn diagnostic(&self, mut diagnostic: Diagnostic) -> Diagnostic {
        diagnostic.path = self.path(&diagnostic.path);
        diagnostic
    }

    fn path(&self, path: &Path) -> Path {
        let segments = path.segments();
        let (Some(Segment::Key(first)), Some(Segment::Index(i))) = (segments.first(), segments.get(1)) else {
            return path.clone();
        };
        if &**first != "input" {
            return path.clone();
        }
        let rest = &segments[2..];
        if *i < self.history {
            return extend(Path::root().key("memory").index(*i), rest);
        }
        let k = i - self.history;
        match self.input_kind {
            agent_input::InputType::Messages => extend(self.input_path.index(k), rest),
            agent_input::InputType::ContentBlocks => match rest {
                [Segment::Key(content), tail @ ..] if &**content == "content" => extend(self.input_path.clone(), tail),
                _ => self.input_path.clone(),
            },
            agent_input::InputType::Text => self.input_path.clone(),
        }
    }
}

fn extend(mut path: Path, rest: &[Segment]) -> Path {
    for segment in rest {
        path = match segment {
            Segment::Key(key) => path.key(key),
            Segment::Index(i) => path.index(*i),
        };
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_input::InputType;

    #[test]
    fn combined_paths_point_back_to_the_request_or_the_memory() {
        let input = Path::root().key("input");
        let remap = Remap { history: 2, input_path: &input, input_kind: InputType::ContentBlocks };
        let path = |p: &str| remap.path(&Path::parse(p).unwrap()).to_string();
        assert_eq!(path("/input/1/content/0/source"), "/memory/1/content/0/source");
        assert_eq!(path("/input/2/content/3/source/data"), "/input/3/source/data");
        assert_eq!(path("/input/2/role"), "/input");
        assert_eq!(path("/options/temperature"), "/options/temperature");
        let remap = Remap { history: 2, input_path: &input, input_kind: InputType::Messages };
        assert_eq!(remap.path(&Path::parse("/input/3/toolCallId").unwrap()).to_string(), "/input/1/toolCallId");
        let question = Path::root().key("parameters").key("question");
        let remap = Remap { history: 1, input_path: &question, input_kind: InputType::Text };
        assert_eq!(remap.path(&Path::parse("/input/1/content/0/text").unwrap()).to_string(), "/parameters/question");
    }
}
