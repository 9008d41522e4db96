// The declarations of `agent-input/response`: `parseResponse`, out of the base entry since 0.2.0.
export { parseResponse } from './agent_input_response.js';

export type {
  ContentBlock,
  Diagnostic,
  Message,
  MlCommonsProviderName,
  ProviderId,
  ResponseResult,
  ToolCall,
  Usage,
  ValidationError,
} from './agent_input_response.js';
