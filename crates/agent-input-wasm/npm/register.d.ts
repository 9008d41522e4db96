// The declarations of `agent-input/register`: registration plans for an ml-commons cluster.
export { planRegistration, predictMlCommons, previewRegistration } from './agent_input_register.js';

export type {
  AgentRegistration,
  Diagnostic,
  ExecuteRequest,
  MlCommonsOptions,
  MlCommonsParameters,
  MlCommonsPrediction,
  PlanOptions,
  RegistrationPlan,
  RegistrationPreview,
  RegistrationStep,
  ValidationError,
  ValidationWarning,
} from './agent_input_register.js';
