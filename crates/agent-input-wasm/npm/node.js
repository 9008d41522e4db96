// The entry for Node.js (the "node" export condition): the module is read from disk and
// instantiated synchronously, so importing needs no flags and no top-level await.
import { readFileSync } from 'node:fs';
import {
  convert,
  convertInput,
  convertJson,
  detectInputType,
  extractQuestion,
  initSync,
  packageVersion,
  validate,
  validateInput,
  validateJson,
} from './agent_input.js';

initSync({ module: readFileSync(new URL('./agent_input_bg.wasm', import.meta.url)) });

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
