// The entry `agent-input/schema` for Node.js: its own module, read from disk and instantiated
// synchronously, as node.js does for the base entry.
import { readFileSync } from 'node:fs';
import {
  checkSchema,
  formatInputs,
  formatInputsJson,
  initSync,
  validateParameters,
  validateParametersJson,
} from './agent_input_schema.js';

initSync({ module: readFileSync(new URL('./agent_input_schema_bg.wasm', import.meta.url)) });

export { checkSchema, formatInputs, formatInputsJson, validateParameters, validateParametersJson };
