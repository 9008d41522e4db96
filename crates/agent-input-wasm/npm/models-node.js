// The entry `agent-input/models` for Node.js: its own module, read from disk and instantiated
// synchronously, as node.js does for the base entry. The same module browsers load (built for
// size): the table's entry has no build of its own for speed.
import { readFileSync } from 'node:fs';
import {
  convert,
  convertInput,
  convertJson as convertMarked,
  detectInputType,
  extractQuestion,
  importRequest,
  initSync,
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

initSync({ module: readFileSync(new URL('./agent_input_models_bg.wasm', import.meta.url)) });

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
