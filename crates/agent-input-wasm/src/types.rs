//! TypeScript declarations of every type the package takes or returns, emitted into the
//! generated `.d.ts` beside the functions (whose signatures name these types). Tests below keep
//! the unions of codes and formats equal to the core's lists.

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT_SECTION: &str = TYPESCRIPT;

/// The declarations, also read by the tests below. Only wasm32 builds keep the section.
#[allow(dead_code)] // the section above uses it, which the dead-code lint does not see
const TYPESCRIPT: &str = r#"
/**
 * The standard agent input of ml-commons' `_execute` API, in one of three forms: plain text,
 * content blocks (one user message), or role-based messages.
 */
export type AgentInput = string | ContentBlock[] | Message[];

/** The form of an input, named as ml-commons names it. */
export type InputType = "TEXT" | "CONTENT_BLOCKS" | "MESSAGES";

/** The body of `POST /_plugins/_ml/agents/<id>/_execute`. */
export interface ExecuteRequest {
  /** The standard input. When absent, `parameters.question` is read as text input (legacy). */
  input?: AgentInput;
  /** A flat map of parameters; `question` is the legacy input. */
  parameters?: { question?: string; [name: string]: unknown };
  /** Other keys ml-commons reads (`agent_id`, `tenant_id`, `isAsync`) are accepted. */
  [key: string]: unknown;
}

/** A piece of content. `type` is case-insensitive. */
export type ContentBlock = TextBlock | ImageBlock | VideoBlock | DocumentBlock | ProviderItemBlock;

/** Non-blank text. */
export interface TextBlock {
  type: "text";
  text: string;
}

/** An image: png, jpeg, gif or webp (`jpg` is accepted and normalized, with a warning). */
export interface ImageBlock {
  type: "image";
  source: Source<ImageFormat | "jpg">;
}

/** A video (`3gp` is accepted as `three_gp`, with a warning). */
export interface VideoBlock {
  type: "video";
  source: Source<VideoFormat | "3gp">;
}

/** A document; `name` becomes the provider's document name (sanitized, made unique). */
export interface DocumentBlock {
  type: "document";
  name?: string;
  source: Source<DocumentFormat | "htm" | "markdown">;
}

/**
 * A provider's own item without a standard form (a hosted or server tool's call or result, a
 * code execution part), as the provider wrote it: written back where it stands for that provider
 * only, left out with a `provider_item_dropped` warning for another (contract §3.2). An
 * ml-commons cluster refuses it.
 */
export interface ProviderItemBlock {
  type: "provider_item";
  provider: ProviderId;
  item: Record<string, unknown>;
}

/** Where media comes from. Formats are case-insensitive. */
export type Source<F extends string = string> = Base64Source<F> | UrlSource<F>;

/**
 * Standard padded base64. A `data:<mime>;base64,` prefix and line breaks are tolerated, with a
 * warning.
 */
export interface Base64Source<F extends string = string> {
  type: "base64";
  format: F;
  data: string;
}

/** An `https:`, `http:` or `s3:` URL. Bedrock Converse takes only `s3:`. */
export interface UrlSource<F extends string = string> {
  type: "url";
  format: F;
  data: string;
}

export type ImageFormat = "png" | "jpeg" | "gif" | "webp";
export type VideoFormat = "mkv" | "mov" | "mp4" | "webm" | "flv" | "mpeg" | "mpg" | "wmv" | "three_gp";
export type DocumentFormat = "pdf" | "csv" | "doc" | "docx" | "xls" | "xlsx" | "html" | "txt" | "md";

/** Any non-empty role is valid input; providers know user, assistant, system and tool. */
export type Role = "user" | "assistant" | "system" | "tool" | (string & {});

/**
 * A reasoning effort in the providers' words: OpenAI takes all of them, Anthropic `low` to
 * `high` and `max`, Gemini `minimal` to `high`, Bedrock none (a budget only).
 */
export type Effort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/**
 * One message of a conversation. `user`, `system` and other roles need `content`; `assistant`
 * needs `content` or `toolCalls`; `tool` needs `toolCallId` and `content`.
 */
export interface Message {
  role: Role;
  content?: ContentBlock[];
  /** An assistant's tool calls. */
  toolCalls?: ToolCall[];
  /** On a `tool` message: the id of the call it answers. */
  toolCallId?: string;
  /**
   * On a `tool` message: `"json"` when each text block holds a JSON value (the result was a
   * JSON object or value), which providers that take JSON results get as that value (contract
   * §3.5).
   */
  resultFormat?: "json";
  /**
   * On an `assistant` message: what its provider needs back on the next turn (thought
   * signatures, thinking blocks, reasoning items), as the provider wrote it; sent back to that
   * provider only (contract §3.5).
   */
  reasoningState?: ReasoningState;
  /**
   * A provider's own fields of the message and of its elements (its content blocks, then its
   * tool calls, counted from 0), as import keeps them; written back for that provider only
   * (docs/provider-fields.md).
   */
  providerFields?: MessageFields;
}

/** A message's provider fields: the message object's own (`fields`) and its elements' (`items`). */
export interface MessageFields {
  provider: ProviderId;
  fields?: Record<string, unknown>;
  items?: Array<{ on: number; fields: Record<string, unknown> }>;
}

/** An assistant message's reasoning state: opaque items placed against its elements. */
export interface ReasoningState {
  provider: ProviderId;
  items: Array<Record<string, unknown>>;
}

/** A tool call made by the assistant. */
export interface ToolCall {
  id: string;
  type?: "function";
  function: {
    name: string;
    /** A JSON object, as text. */
    arguments: string;
  };
}

/** Codes of problems that make input unusable (see docs/errors.md). Never renamed. */
export type ErrorCode =
  | "invalid_json" | "too_large" | "too_deep" | "too_many" | "invalid_field_type" | "missing_input"
  | "invalid_input_type" | "empty_input" | "invalid_item" | "mixed_array" | "use_source_field"
  | "unsupported_content_type" | "missing_field" | "empty_field" | "empty_text"
  | "unsupported_source_type" | "unsupported_format" | "format_mismatch" | "invalid_base64"
  | "invalid_url" | "unsupported_url_scheme" | "invalid_role" | "empty_content"
  | "invalid_tool_arguments" | "invalid_tool_result" | "last_message_role" | "url_not_supported_by_provider"
  | "unsupported_by_provider" | "tool_config_required" | "first_message_not_user"
  | "role_not_supported" | "media_not_allowed_in_role" | "document_requires_text"
  | "unanswered_tool_call" | "unmatched_tool_result" | "invalid_for_provider" | "provider_limit"
  | "invalid_parameter" | "schema_violation" | "invalid_schema" | "import_unsupported"
  | "unknown_provider" | "unsupported_by_agent_type";

/** Codes of problems worth knowing that leave input usable. Never renamed. */
export type WarningCode =
  | "question_ignored" | "format_normalized" | "data_url_prefix_stripped"
  | "base64_whitespace_removed" | "field_ignored" | "messages_merged" | "document_name_sanitized"
  | "tool_call_id_rewritten" | "import_dropped" | "template_placeholder" | "reasoning_state_dropped"
  | "empty_tool_list" | "unknown_model" | "schema_rewritten" | "provider_item_dropped" | "provider_fields_dropped"
  | "thought_signature_added"
  | "ml_commons_known_issue";

export type Code = ErrorCode | WarningCode;

/** One problem: a stable code, where it is, and what to do about it. */
export interface Diagnostic<C extends Code = Code> {
  code: C;
  /**
   * An RFC 6901 JSON Pointer into the request (`/input/0/source/format`), into the bare input
   * (`/0/source/format`), or to an option (`/options/temperature`); `""` is the whole request.
   */
  path: string;
  /** One sentence a person can act on. */
  message: string;
  /** The allowed values, where a list helps. */
  expected?: string[];
  /** What was found (cut at 200 characters). */
  received?: string;
  /** The limit that was exceeded. */
  limit?: number;
  /** The value that exceeded it. */
  actual?: number;
  /**
   * For `schema_violation` and `invalid_schema` (`agent-input/schema`): a JSON Pointer to the
   * failing keyword of the agent's `parameters_schema` (merged with the prompt).
   */
  schemaPath?: string;
}

export type ValidationError = Diagnostic<ErrorCode>;
export type ValidationWarning = Diagnostic<WarningCode>;

/** Every problem found, not just the first. */
export interface ValidationReport {
  /** No errors. */
  valid: boolean;
  /** The input's form whenever it could be told, even when the input has errors. */
  inputType: InputType | null;
  errors: ValidationError[];
  warnings: ValidationWarning[];
}

/** Size limits, checked before the work they protect. */
export interface Limits {
  /** Largest request in bytes of JSON (default 64 MiB). */
  maxBodyBytes?: number;
  /** Deepest nesting of arrays and objects (default 64). */
  maxDepth?: number;
  /** Most messages (default 10,000). */
  maxMessages?: number;
  /** Most content blocks in one message or input (default 1,000). */
  maxBlocks?: number;
}

export interface ValidateOptions {
  /** Accept a conversation that ends with an assistant message, for the model to continue. */
  allowPrefill?: boolean;
  /** The input goes to an ml-commons cluster: warn about `${` in its text (`template_placeholder`). */
  mlCommons?: boolean;
  limits?: Limits;
}

/** The options of `validate`, `validateInput` and `validateJson`: those of every validation, and
 * the model. */
export interface ValidateRequestOptions extends ValidateOptions {
  /**
   * The model id, checked as `ConvertOptions.model` is, by the rules of the API its family's
   * vendor runs (Anthropic Messages for Claude): its errors make the request invalid.
   */
  model?: string;
}

/** A provider request format. */
export type ProviderId = "bedrock-converse" | "openai-chat" | "openai-responses" | "anthropic-messages" | "gemini";

/** ml-commons' `model_provider` names, accepted wherever a provider id is. */
export type MlCommonsProviderName = "bedrock/converse" | "openai/v1/chat/completions" | "gemini/v1beta/generatecontent";

/** A tool the model may call. */
export interface ToolSpec {
  /** As tool calls name it; Bedrock allows `[a-zA-Z0-9_-]{1,64}`. */
  name: string;
  description?: string;
  /** JSON Schema of the arguments, of type `object`; `{"type":"object","properties":{}}` when absent. */
  inputSchema?: { type: "object"; [keyword: string]: unknown };
  /**
   * The tool's own fields of one provider (`{"provider": "openai-responses", "fields": {"strict": true}}`),
   * relative to the object that provider writes for the tool: merged into it for that provider,
   * left out with `provider_fields_dropped` for another.
   */
  providerFields?: ProviderFields;
}

/** A provider's own fields, as its API writes them, kept for that provider. */
export interface ProviderFields {
  provider: ProviderId;
  fields: Record<string, unknown>;
}

/**
 * A hosted or server tool's spec (Anthropic `web_search_20250305`, Responses `file_search`,
 * Gemini `{"googleSearch": {}}`), exactly as its provider writes it: written back at its place in
 * `tools` for that provider, left out with `provider_item_dropped` for another.
 */
export interface ProviderTool {
  type: "provider_tool";
  provider: ProviderId;
  tool: Record<string, unknown>;
}

/**
 * How to convert. Numbers may also be given as numeric strings (ml-commons stores
 * `model_parameters` as strings), and snake_case keys (`max_tokens`) are accepted too. A bad
 * value is an `invalid_parameter` error at `/options/<snake_case name>`.
 */
export interface ConvertOptions extends ValidateOptions {
  /** The target provider, by id or by ml-commons' `model_provider` name. */
  provider: ProviderId | MlCommonsProviderName;
  /** A system prompt, placed before the text of any system messages. */
  system?: string;
  /** Most tokens to generate (default 4096). */
  maxTokens?: number | string;
  /** 0 to 1 (0 to 2 for OpenAI and Gemini); sent only when given. */
  temperature?: number | string;
  /** 0 to 1; sent only when given. */
  topP?: number | string;
  stopSequences?: string[];
  /** Required when the conversation holds tool calls or results; a provider's own tools among them. */
  tools?: (ToolSpec | ProviderTool)[];
  /** Which tools the model may call (`"required"` is `"any"`); a named tool must be in `tools`. */
  toolChoice?: "auto" | "any" | "required" | "none" | { name: string };
  /** Cache points after the system prompt and the tools (Bedrock, Anthropic; automatic elsewhere). */
  promptCache?: boolean | { ttl?: "5m" | "1h" };
  /** Structured output: a JSON Schema the answer must follow (`name` defaults to `"response"`). */
  responseFormat?: { schema: object; name?: string; description?: string; strict?: boolean };
  /**
   * How much the model may think: an effort, or a budget of thinking tokens (Anthropic and
   * Bedrock: at least 1024 and below `maxTokens`; OpenAI takes an effort only, Bedrock a budget only).
   */
  reasoning?: Effort | number | { effort: Effort } | { budget_tokens: number };
  /**
   * The model id as the provider's API or ml-commons writes it (`"gpt-4o"`, `"claude-sonnet-4-5"`,
   * `"us.anthropic.claude-sonnet-4-5-20250929-v1:0"`, `"gemini-2.5-pro"`): what the model refuses
   * (sampling with reasoning, thinking budgets, images, system prompts) is refused too, by the
   * capability table of model families. The table and the providers' pixel limits are in the
   * entry `agent-input/models`, out of the base module for its size: the base entry takes a
   * `model` with the warning `unknown_model` ("import agent-input/models to check it") and checks
   * the provider's own rules only. A model the table does not know is that warning everywhere.
   */
  model?: string;
  /**
   * A provider's own request fields, which the standard input has no place for (`store`,
   * `generationConfig.topK`, ...): merged into the body for that provider (objects key by key; a
   * field the conversion writes itself is refused), left out with `provider_fields_dropped` for
   * any other. `importRequest` fills it with the body's own fields. `provider_fields` is read too.
   */
  providerFields?: { provider: ProviderId | MlCommonsProviderName; fields: Record<string, unknown> };
}

/** The body of any provider's request: narrow it by the provider you converted to. */
export type ProviderRequest =
  | ConverseRequest
  | OpenAiChatRequest
  | OpenAiResponsesRequest
  | AnthropicMessagesRequest
  | GeminiRequest;

/** OpenAI `POST /v1/chat/completions` without `model` (add it before sending). */
export interface OpenAiChatRequest {
  messages: { role: "system" | "developer" | "user" | "assistant" | "tool"; [key: string]: unknown }[];
  max_completion_tokens: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  tools?: { type: "function"; function: { name: string; description?: string; parameters: object } }[];
}

/** OpenAI `POST /v1/responses` without `model` (add it before sending). */
export interface OpenAiResponsesRequest {
  instructions?: string;
  input: ({ type: "message" | "function_call" | "function_call_output"; [key: string]: unknown })[];
  max_output_tokens: number;
  temperature?: number;
  top_p?: number;
  tools?: { type: "function"; name: string; description?: string; parameters: object; strict: boolean }[];
}

/** Anthropic `POST /v1/messages` without `model` (add it before sending). */
export interface AnthropicMessagesRequest {
  max_tokens: number;
  system?: { type: "text"; text: string }[];
  messages: { role: "user" | "assistant"; content: { type: string; [key: string]: unknown }[] }[];
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
  tools?: { name: string; description?: string; input_schema: object }[];
}

/** Gemini `POST /v1beta/models/{model}:generateContent`. */
export interface GeminiRequest {
  contents: { role: "user" | "model"; parts: Record<string, unknown>[] }[];
  systemInstruction?: { parts: { text: string }[] };
  generationConfig: { maxOutputTokens: number; temperature?: number; topP?: number; stopSequences?: string[] };
  tools?: { functionDeclarations: { name: string; description?: string; parametersJsonSchema: object }[] }[];
}

/** Token counts of one model call. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Input tokens read from the prompt cache, when the provider reports them. */
  cacheReadInputTokens?: number;
  /** Input tokens written to the prompt cache, when the provider reports them (Bedrock, Anthropic). */
  cacheWriteInputTokens?: number;
}

/** `parseResponse`'s outcome: the assistant's message, why it stopped, and its token counts. */
export type ResponseResult =
  | {
      ok: true;
      message: Message;
      /** `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, `content_filtered`, `malformed_output`, `pause_turn`, or the provider's own word. */
      stopReason: string | null;
      usage: Usage | null;
      /** The model's reasoning (thinking) text, when it shows it; not part of the message. */
      reasoning?: string;
      errors: [];
    }
  | { ok: false; errors: ValidationError[] };

/** The outcome of a conversion: the body, or every reason there is none. */
export type ConvertResult<Body = ProviderRequest> =
  | { ok: true; body: Body; errors: []; warnings: ValidationWarning[] }
  | { ok: false; body?: undefined; errors: ValidationError[]; warnings: ValidationWarning[] };

/** `convertJson`'s outcome: the body is JSON text, ready to send. */
export type ConvertJsonResult = ConvertResult<string>;

/** The body of Bedrock Runtime `POST /model/{modelId}/converse`. */
export interface ConverseRequest {
  messages: ConverseMessage[];
  system?: { text: string }[];
  inferenceConfig: { maxTokens: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: { tools: { toolSpec: { name: string; description?: string; inputSchema: { json: object } } }[] };
}

export interface ConverseMessage {
  role: "user" | "assistant";
  content: ConverseContentBlock[];
}

export type ConverseMediaSource = { bytes: string } | { s3Location: { uri: string } };

export type ConverseContentBlock =
  | { text: string }
  | { image: { format: ImageFormat; source: ConverseMediaSource } }
  | { video: { format: VideoFormat; source: ConverseMediaSource } }
  | { document: { format: DocumentFormat; name: string; source: ConverseMediaSource } }
  | { toolUse: { toolUseId: string; name: string; input: unknown } }
  | {
      toolResult: {
        toolUseId: string;
        content: Exclude<ConverseContentBlock, { toolUse: unknown } | { toolResult: unknown }>[];
      };
    };
"#;

#[cfg(test)]
mod tests {
    use super::TYPESCRIPT;
    use agent_input::format::{DocumentFormat, ImageFormat, Parsed, VideoFormat};
    use agent_input::{Code, Severity};

    /// The string literals of `export type <name> = ...;`.
    fn union(name: &str) -> Vec<String> {
        let start = TYPESCRIPT.find(&format!("export type {name} =")).unwrap_or_else(|| panic!("{name} is declared"));
        let declaration = &TYPESCRIPT[start..];
        let declaration = &declaration[..declaration.find(';').expect("declarations end with ;")];
        declaration.split('"').skip(1).step_by(2).map(str::to_string).collect()
    }

    #[test]
    fn code_unions_list_every_code_by_severity() {
        for (name, severity) in [("ErrorCode", Severity::Error), ("WarningCode", Severity::Warning)] {
            let codes: Vec<String> =
                Code::ALL.iter().filter(|c| c.severity() == severity).map(|c| c.as_str().to_string()).collect();
            assert_eq!(union(name), codes, "{name}");
        }
    }

    #[test]
    fn format_unions_list_every_format() {
        assert_eq!(union("ImageFormat"), ImageFormat::NAMES);
        assert_eq!(union("VideoFormat"), VideoFormat::NAMES);
        assert_eq!(union("DocumentFormat"), DocumentFormat::NAMES);
    }

    #[test]
    fn aliases_in_the_types_are_accepted_aliases() {
        assert!(matches!(ImageFormat::parse("jpg"), Some(Parsed::Normalized(_))));
        assert!(matches!(VideoFormat::parse("3gp"), Some(Parsed::Normalized(_))));
        assert!(matches!(DocumentFormat::parse("htm"), Some(Parsed::Normalized(_))));
        assert!(matches!(DocumentFormat::parse("markdown"), Some(Parsed::Normalized(_))));
    }

    #[test]
    fn provider_ids_are_the_cores() {
        let ids: Vec<&str> = agent_input::ProviderId::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(union("ProviderId"), ids);
        let names: Vec<&str> = agent_input::ProviderId::ALL.iter().filter_map(|p| p.ml_commons_name()).collect();
        assert_eq!(union("MlCommonsProviderName"), names);
    }
}
