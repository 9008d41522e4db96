// The declarations of `agent-input/models`: the base entry's functions and `importRequest`, with
// the same signatures as `agent-input` and `agent-input/import` (their module here has the
// capability table of model families), and the table's reader `modelFamily`.
export {
  convert,
  convertInput,
  convertJson,
  detectInputType,
  extractQuestion,
  validate,
  validateInput,
  validateJson,
  version,
} from './index.js';
export { importRequest, providerForBody, providerForUrl, providers } from './import.js';
export { modelFamily } from './agent_input_models.js';

/** The table's source: LiteLLM's model map, its version and the day it was read. */
export declare const modelSource: string;

export type * from './index.js';
export type { ImportOptions, ImportResult, ProviderInfo } from './import.js';
export type { ModelFamily, ModelSupport } from './agent_input_models.js';
