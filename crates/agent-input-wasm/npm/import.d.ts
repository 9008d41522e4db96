// The declarations of `agent-input/import`: `importRequest`.
export { importRequest } from './agent_input_import.js';

export type {
  AgentInput,
  Diagnostic,
  ImportOptions,
  ImportResult,
  MlCommonsProviderName,
  ProviderId,
  ProviderRequest,
  ValidationError,
  ValidationWarning,
} from './agent_input_import.js';
