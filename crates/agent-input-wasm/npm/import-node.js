// The entry `agent-input/import` for Node.js: its own module, read from disk and instantiated
// synchronously, as node.js does for the base entry, and built for speed like node.js's
// (agent_input_import_node_bg.wasm; browsers and bundlers get agent_input_import_bg.wasm).
import { readFileSync } from 'node:fs';
import { initSync, importRequest, providerForBody, providerForUrl, providers } from './agent_input_import.js';

initSync({ module: readFileSync(new URL('./agent_input_import_node_bg.wasm', import.meta.url)) });

export { importRequest, providerForBody, providerForUrl, providers };
