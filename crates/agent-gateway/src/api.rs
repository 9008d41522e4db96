//! Request handlers: read the request, call the store or the pipeline, write the response.

use std::collections::BTreeMap;

use agent_input::field::{Fields, Nulls, Wording};
use agent_input::{Code, Diagnostic, Path, Report};
use axum::body::Body;
use axum::extract::{Path as UrlPath, Query, Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Map, Value, json};

use crate::error::{ApiError, ErrorKind, json_response};
use crate::provider;
use crate::state::{AppState, new_id};
use crate::store::{Agent, Credential, ModelSpec, Store, StoreError, now_ms};

type Answer = Result<Response, ApiError>;

/// `POST /_plugins/_ml/agents/_register` → `{"agent_id": "..."}`.
pub async fn register(State(state): State<AppState>, request: Request) -> Answer {
    let body = read_body(request.into_body(), state.config.max_body_bytes).await?;
    let value: Value = serde_json::from_slice(&body).map_err(|e| {
        ApiError::invalid_one(Diagnostic::new(
            Code::InvalidJson,
            Path::root(),
            format!("the request is not valid JSON: {e}"),
        ))
    })?;
    let agent = agent_from_json(&value, new_id(), &state.config.endpoint_allow).map_err(ApiError::invalid)?;
    let id = agent.id.clone();
    state.store.call(move |store| store.put_agent(&agent)).await.map_err(storage)?;
    Ok(json_response(StatusCode::OK, &json!({"agent_id": id})))
}

/// `GET /_plugins/_ml/agents/{id}`: the agent without its credential.
pub async fn get_agent(State(state): State<AppState>, UrlPath(agent_id): UrlPath<String>) -> Answer {
    let lookup = agent_id.clone();
    let agent = state
        .store
        .call(move |store| store.agent(&lookup))
        .await
        .map_err(storage)?
        .ok_or_else(|| agent_missing(&agent_id))?;
    Ok(json_response(StatusCode::OK, &public_agent(&agent)))
}

/// `DELETE /_plugins/_ml/agents/{id}`, answered as `OpenSearch` answers a delete.
pub async fn delete_agent(State(state): State<AppState>, UrlPath(agent_id): UrlPath<String>) -> Answer {
    let lookup = agent_id.clone();
    if state.store.call(move |store| store.delete_agent(&lookup)).await.map_err(storage)? {
        Ok(json_response(StatusCode::OK, &json!({"_index": ".plugins-ml-agent", "_id": agent_id, "result": "deleted"})))
    } else {
        Err(agent_missing(&agent_id))
    }
}

/// `POST /_plugins/_ml/agents/{id}/_execute`.
pub async fn execute(State(state): State<AppState>, UrlPath(agent_id): UrlPath<String>, request: Request) -> Answer {
    let body = read_body(request.into_body(), state.config.max_body_bytes).await?;
    let answer = crate::execute::execute(&state, agent_id, body).await?;
    Ok(json_response(StatusCode::OK, &answer))
}

/// `POST /_plugins/_ml/agents/{id}/_execute/stream`: the standard envelope or AG-UI input,
/// answered with AG-UI events ([`crate::streaming`]).
pub async fn execute_stream(
    State(state): State<AppState>,
    UrlPath(agent_id): UrlPath<String>,
    request: Request,
) -> Answer {
    let body = read_body(request.into_body(), state.config.max_body_bytes).await?;
    crate::streaming::respond(&state, agent_id, body).await
}

/// Most messages in one page of `GET …/messages`, and the default.
pub const MAX_PAGE: usize = 1000;

/// The query of `GET …/messages`, as ml-commons names it: `max_results` (1 to [`MAX_PAGE`]) and
/// `next_token` (the `next_token` of the previous page).
#[derive(Debug, Default, serde::Deserialize)]
pub struct Page {
    max_results: Option<String>,
    next_token: Option<String>,
}

/// `GET /_plugins/_ml/memory/{memory_id}/messages`: the stored messages in order, a page at a time
/// (`next_token` in the answer when more follow).
pub async fn memory_messages(
    State(state): State<AppState>,
    UrlPath(memory_id): UrlPath<String>,
    Query(page): Query<Page>,
) -> Answer {
    let number = |raw: Option<&String>, name: &str, min: i64, max: i64| -> Result<Option<i64>, ApiError> {
        raw.map(|text| match text.trim().parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(ApiError::invalid_one(
                Diagnostic::new(
                    Code::InvalidParameter,
                    Path::root().key(name),
                    format!("{name} must be a whole number from {min} to {max}"),
                )
                .received(text.clone()),
            )),
        })
        .transpose()
    };
    let max_page = i64::try_from(MAX_PAGE).unwrap_or(i64::MAX);
    let size = number(page.max_results.as_ref(), "max_results", 1, max_page)?.unwrap_or(max_page);
    let after = number(page.next_token.as_ref(), "next_token", 0, i64::MAX)?.unwrap_or(0);
    let lookup = memory_id.clone();
    let limit = usize::try_from(size).unwrap_or(MAX_PAGE) + 1; // one more tells whether a page follows
    let (memory, mut rows, evicted) = state
        .store
        .call(move |store| {
            let Some(memory) = store.memory(&lookup)? else { return Ok((None, Vec::new(), store.evicted(&lookup)?)) };
            store.touch(&lookup)?;
            Ok((Some(memory), store.messages_page(&lookup, after, limit)?, None))
        })
        .await
        .map_err(storage)?;
    let next_token = (rows.len() >= limit).then(|| {
        rows.truncate(limit - 1);
        rows.last().map_or(after, |row| row.message_id)
    });
    let memory = memory.ok_or_else(|| match &evicted {
        Some(evicted) => ApiError::not_found(crate::execute::evicted_reason(&memory_id, evicted)),
        None => ApiError::not_found(format!("Failed to find memory with the provided memory id: {memory_id}")),
    })?;
    let mut messages = Vec::with_capacity(rows.len());
    for row in rows {
        let message: Value = serde_json::from_str(&row.message)
            .map_err(|e| ApiError::internal(format!("stored message {} is not JSON: {e}", row.message_id)))?;
        messages.push(
            json!({"message_id": row.message_id, "role": row.role, "create_time": row.created_ms, "message": message}),
        );
    }
    let mut answer = json!({"memory_id": memory.id, "agent_id": memory.agent_id, "create_time": memory.created_ms,
            "last_updated_time": memory.updated_ms, "messages": messages});
    if let Some(token) = next_token {
        answer["next_token"] = json!(token.to_string());
    }
    Ok(json_response(StatusCode::OK, &answer))
}

/// Anything else under the API.
pub async fn unknown(request: Request) -> ApiError {
    ApiError::new(ErrorKind::ResourceNotFound, format!("no route for {} {}", request.method(), request.uri().path()))
}

/// A known API path with a method it does not take, in the `OpenSearch` error shape.
pub async fn method_not_allowed(request: Request) -> ApiError {
    ApiError::new(
        ErrorKind::MethodNotAllowed,
        format!("{} is not allowed on {}", request.method(), request.uri().path()),
    )
}

/// Registers the `echo` agent under the id `echo` unless an agent has that id.
///
/// # Errors
/// Storage failures.
pub fn ensure_echo_agent(store: &Store) -> Result<(), StoreError> {
    if store.agent("echo")?.is_some() {
        return Ok(());
    }
    store.put_agent(&Agent {
        id: "echo".into(),
        name: "echo".into(),
        kind: "conversational".into(),
        description: Some("Offline, deterministic: answers with a description of what it received.".into()),
        model: ModelSpec {
            model_id: "echo".into(),
            model_provider: "echo".into(),
            credential: Credential::default(),
            model_parameters: Map::new(),
        },
        parameters: Map::new(),
        parameters_schema: None,
        created_ms: now_ms(),
    })
}

async fn read_body(body: Body, limit: usize) -> Result<Vec<u8>, ApiError> {
    if let Ok(bytes) = axum::body::to_bytes(body, limit).await {
        Ok(Vec::from(bytes)) // reuses the buffer: no second copy of a large body
    } else {
        let mut diagnostic = Diagnostic::new(
            Code::TooLarge,
            Path::root(),
            format!("the request body is over the limit of {limit} bytes"),
        );
        diagnostic.limit = Some(limit as u64);
        let reason = diagnostic.message.clone();
        Err(ApiError { details: vec![diagnostic], ..ApiError::new(ErrorKind::RequestTooLarge, reason) })
    }
}

#[allow(clippy::needless_pass_by_value)] // used as map_err(storage)
fn storage(error: StoreError) -> ApiError {
    ApiError::internal(error.to_string())
}

fn agent_missing(id: &str) -> ApiError {
    ApiError::not_found(format!("Failed to find agent with the provided agent id: {id}"))
}

fn public_agent(agent: &Agent) -> Value {
    json!({
        "agent_id": agent.id,
        "name": agent.name,
        "type": agent.kind,
        "description": agent.description,
        "model": {
            "model_id": agent.model.model_id,
            "model_provider": agent.model.model_provider,
            "model_parameters": agent.model.model_parameters,
        },
        "parameters": agent.parameters,
        "parameters_schema": agent.parameters_schema,
        "created_time": agent.created_ms,
    })
}

/// Reads a registration body, reporting every problem (ml-commons' messages where it has them).
fn agent_from_json(value: &Value, id: String, endpoint_allow: &[String]) -> Result<Agent, Report> {
    let mut report = Report::default();
    let root = Path::root();
    let Some(body) = value.as_object() else {
        report.push(Diagnostic::new(Code::InvalidFieldType, root, "the request body must be a JSON object"));
        return Err(report);
    };
    let name = required_string(body, &root, "name", &mut report);
    let kind = required_string(body, &root, "type", &mut report);
    let description = optional_string(body, &root, "description", &mut report);
    let parameters = optional_object(body, &root, "parameters", &mut report);
    let parameters_schema = crate::schema::registered(body.get("parameters_schema")).unwrap_or_else(|problems| {
        report.extend(problems);
        None
    });
    let model_path = root.key("model");
    let model = match body.get("model") {
        None | Some(Value::Null) => {
            report.push(Diagnostic::new(
                Code::MissingField,
                model_path.clone(),
                "Model specification not found: model is required",
            ));
            None
        }
        Some(Value::Object(model)) => {
            let model_id = required_string(model, &model_path, "model_id", &mut report);
            let provider = required_string(model, &model_path, "model_provider", &mut report);
            let credential = optional_object(model, &model_path, "credential", &mut report);
            let mut secrets = BTreeMap::new();
            for (key, value) in &credential {
                // ml-commons stringifies map values.
                match value {
                    Value::String(s) => _ = secrets.insert(key.clone(), s.clone()),
                    Value::Number(_) | Value::Bool(_) => _ = secrets.insert(key.clone(), value.to_string()),
                    Value::Null => {}
                    _ => report.push(Diagnostic::new(
                        Code::InvalidFieldType,
                        model_path.key("credential").key(key),
                        format!("credential.{key} must be a string"),
                    )),
                }
            }
            let model_parameters = optional_object(model, &model_path, "model_parameters", &mut report);
            Some(ModelSpec {
                model_id: model_id.unwrap_or_default(),
                model_provider: provider.clone().unwrap_or_default(),
                credential: Credential(secrets),
                model_parameters,
            })
            .filter(|_| provider.is_some())
        }
        Some(other) => {
            report.push(
                Diagnostic::new(Code::InvalidFieldType, model_path.clone(), "model must be an object")
                    .received(agent_input::json::type_name(other)),
            );
            None
        }
    };
    if let Some(model) = &model {
        report.extend(provider::check_model(model, endpoint_allow));
    }
    match (report.is_ok(), model) {
        (true, Some(model)) => Ok(Agent {
            id,
            name: name.unwrap_or_default(),
            kind: kind.unwrap_or_default(),
            description,
            model,
            parameters,
            parameters_schema,
            created_ms: now_ms(),
        }),
        _ => Err(report),
    }
}

/// ml-commons' wording of registration field problems.
struct Registration;

impl Wording for Registration {
    fn missing(&self, field: Path, key: &str) -> Diagnostic {
        Diagnostic::new(Code::MissingField, field, format!("{key} must be provided"))
    }

    fn wrong_type(&self, field: Path, key: &str, expected: &'static str, found: &'static str) -> Diagnostic {
        let article = if expected == "object" { "an" } else { "a" };
        Diagnostic::new(Code::InvalidFieldType, field, format!("{key} must be {article} {expected}"))
            .expected([expected])
            .received(found)
    }
}

/// The fields of a registration object: `null` is absent, as ml-commons reads them.
fn fields<'v, 'p>(
    object: &'v Map<String, Value>,
    at: &'p Path,
) -> Fields<'v, Map<String, Value>, &'p Path, Registration> {
    Fields::new(object, at, Registration).nulls(Nulls::Absent)
}

fn required_string(object: &Map<String, Value>, at: &Path, key: &str, report: &mut Report) -> Option<String> {
    let value = report.record(fields(object, at).str(key))?;
    if value.trim().is_empty() {
        report.push(Diagnostic::new(Code::EmptyField, at.key(key), format!("{key} cannot be null or empty")));
        return None;
    }
    Some(value.to_string())
}

fn optional_string(object: &Map<String, Value>, at: &Path, key: &str, report: &mut Report) -> Option<String> {
    report.record(fields(object, at).optional_str(key)).flatten().map(str::to_string)
}

fn optional_object(object: &Map<String, Value>, at: &Path, key: &str, report: &mut Report) -> Map<String, Value> {
    report.record(fields(object, at).optional_object(key)).flatten().cloned().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registration_reports_every_problem() {
        let report = agent_from_json(
            &json!({"type": 5, "model": {"model_provider": "nope", "credential": {"k": [1]}}}),
            "x".into(),
            &[],
        )
        .unwrap_err();
        let paths: Vec<String> = report.errors.iter().map(|d| format!("{} {}", d.code, d.path)).collect();
        assert_eq!(
            paths,
            [
                "missing_field /name",
                "invalid_field_type /type",
                "missing_field /model/model_id",
                "invalid_field_type /model/credential/k",
                "invalid_parameter /model/model_provider",
            ]
        );
    }

    #[test]
    fn registration_keeps_the_model_block() {
        let agent = agent_from_json(
            &json!({"name": "n", "type": "conversational", "model": {"model_id": "m", "model_provider": "bedrock/converse",
                "credential": {"api_key": "k"}, "model_parameters": {"region": "us-west-2", "max_tokens": "100"}}}),
            "x".into(),
            &[],
        )
        .unwrap();
        assert_eq!(agent.model.credential.get("api_key"), Some("k"));
        let public = public_agent(&agent).to_string();
        assert!(!public.contains("credential") && !public.contains("\"k\""), "{public}");
    }
}
