// The entry `agent-input/models` for browsers and bundlers: the base entry's functions and
// `importRequest` with the capability table of model families, so `model` is checked (sampling
// with reasoning, thinking budgets, inputs, system prompts, strict schemas) with the providers'
// pixel limits, and `modelFamily` reads the table. Its own WebAssembly module, loaded only by a
// page that imports it, so the base entry stays within its size budget. See index.js for how the
// module is found.
import init, {
  convert,
  convertInput,
  convertJson as convertMarked,
  detectInputType,
  extractQuestion,
  importRequest,
  modelFamily,
  modelTableSource,
  packageVersion,
  providerForBody,
  providerForUrl,
  providers,
  takeSplices,
  validate,
  validateInput,
  validateJson,
} from './agent_input_models.js';
import { splicing } from './splice.js';

await init({ module_or_path: new URL('./agent_input_models_bg.wasm', import.meta.url) });

/** Like `convert`, for JSON text, returning the body as JSON text ready to send. */
const convertJson = splicing(convertMarked, takeSplices);

/** The package version. */
export const version = packageVersion();

/** The table's source: LiteLLM's model map, its version and the day it was read. */
export const modelSource = modelTableSource();

export {
  convert,
  convertInput,
  convertJson,
  detectInputType,
  extractQuestion,
  importRequest,
  modelFamily,
  providerForBody,
  providerForUrl,
  providers,
  validate,
  validateInput,
  validateJson,
};
