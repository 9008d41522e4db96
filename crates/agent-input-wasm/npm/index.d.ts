// The package's public declarations: the functions and types of the generated bindings
// (agent_input.d.ts), without their loader functions, which the entry modules call themselves.
import type { ConvertJsonResult, ConvertOptions } from './agent_input.js';

export {
  convert,
  convertInput,
  detectInputType,
  extractQuestion,
  validate,
  validateInput,
  validateJson,
} from './agent_input.js';

/**
 * Like `convert`, for a request body given as JSON text, returning the body as JSON text ready
 * to send. Large base64 payloads are copied from the request text into the body verbatim.
 */
// Declared here: the module's own `convertJson` returns the body text alone when there is
// nothing to report, and the entries make the result (npm/splice.js).
export function convertJson(text: string, options: ConvertOptions): ConvertJsonResult;

export type {
  AgentInput,
  AnthropicMessagesRequest,
  Base64Source,
  Code,
  ContentBlock,
  ConverseContentBlock,
  ConverseMediaSource,
  ConverseMessage,
  ConverseRequest,
  ConvertJsonResult,
  ConvertOptions,
  ConvertResult,
  Diagnostic,
  DocumentBlock,
  DocumentFormat,
  Effort,
  ErrorCode,
  ExecuteRequest,
  GeminiRequest,
  ImageBlock,
  ImageFormat,
  InputType,
  Limits,
  Message,
  MessageFields,
  MlCommonsProviderName,
  OpenAiChatRequest,
  OpenAiResponsesRequest,
  ProviderFields,
  ProviderId,
  ProviderItemBlock,
  ProviderRequest,
  ProviderTool,
  ReasoningState,
  ResponseResult,
  Role,
  Source,
  TextBlock,
  ToolCall,
  ToolSpec,
  UrlSource,
  Usage,
  ValidateOptions,
  ValidateRequestOptions,
  ValidationError,
  ValidationReport,
  ValidationWarning,
  VideoBlock,
  VideoFormat,
  WarningCode,
} from './agent_input.js';

/** The package version. */
export declare const version: string;
