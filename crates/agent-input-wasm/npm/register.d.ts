// The declarations of `agent-input/register`: registration plans for an ml-commons cluster.
export { planRegistration, previewRegistration } from './agent_input_register.js';

export type {
  AgentRegistration,
  Diagnostic,
  ExecuteRequest,
  PlanOptions,
  RegistrationPlan,
  RegistrationPreview,
  RegistrationStep,
  ValidationError,
  ValidationWarning,
} from './agent_input_register.js';
