// The entry `agent-input/response` for Node.js: its own module, read from disk and instantiated
// synchronously, as node.js does for the base entry.
import { readFileSync } from 'node:fs';
import { initSync, parseResponse } from './agent_input_response.js';

initSync({ module: readFileSync(new URL('./agent_input_response_bg.wasm', import.meta.url)) });

export { parseResponse };
