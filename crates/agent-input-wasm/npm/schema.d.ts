// The declarations of `agent-input/schema`: agent input schemas (an agent's `parameters_schema`).
export { checkSchema, formatInputs, formatInputsJson, validateParameters, validateParametersJson } from './agent_input_schema.js';

export type {
  Diagnostic,
  ErrorCode,
  ExecuteRequest,
  FormatInputsResult,
  ParametersSchema,
  SchemaCheck,
  ValidateOptions,
  ValidationError,
  ValidationReport,
  ValidationWarning,
} from './agent_input_schema.js';
