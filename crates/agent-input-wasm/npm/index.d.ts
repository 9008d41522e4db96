// The package's public declarations: the functions and types of the generated bindings
// (agent_input.d.ts), without their loader functions, which the entry modules call themselves.
export {
  convert,
  convertInput,
  convertJson,
  detectInputType,
  extractQuestion,
  validate,
  validateInput,
  validateJson,
} from './agent_input.js';

export type {
  AgentInput,
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
  ErrorCode,
  ExecuteRequest,
  ImageBlock,
  ImageFormat,
  InputType,
  Limits,
  Message,
  ProviderId,
  Role,
  Source,
  TextBlock,
  ToolCall,
  ToolSpec,
  UrlSource,
  ValidateOptions,
  ValidationError,
  ValidationReport,
  ValidationWarning,
  VideoBlock,
  VideoFormat,
  WarningCode,
} from './agent_input.js';

/** The package version. */
export declare const version: string;
