// The entry `agent-input/import` for Node.js: its own module, read from disk and instantiated
// synchronously, as node.js does for the base entry.
import { readFileSync } from 'node:fs';
import { initSync, importRequest } from './agent_input_import.js';

initSync({ module: readFileSync(new URL('./agent_input_import_bg.wasm', import.meta.url)) });

export { importRequest };
