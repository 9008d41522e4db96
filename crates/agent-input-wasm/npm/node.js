// The entry for Node.js (the "node" export condition): the module is read from disk and
// instantiated synchronously, so importing needs no flags and no top-level await. Node's module
// is the same code built for speed rather than size (agent_input_node_bg.wasm; browsers and
// bundlers get agent_input_bg.wasm through index.js): nothing downloads it.
import { readFileSync } from 'node:fs';
import {
  convert,
  convertInput,
  convertJson as convertMarked,
  detectInputType,
  extractQuestion,
  initSync,
  packageVersion,
  takeSplices,
  validate,
  validateInput,
  validateJson,
} from './agent_input.js';
import { splicing } from './splice.js';

initSync({ module: readFileSync(new URL('./agent_input_node_bg.wasm', import.meta.url)) });

/** Like `convert`, for JSON text, returning the body as JSON text ready to send. */
const convertJson = splicing(convertMarked, takeSplices);

/** The package version. */
export const version = packageVersion();

export {
  convert,
  convertInput,
  convertJson,
  detectInputType,
  extractQuestion,
  validate,
  validateInput,
  validateJson,
};
