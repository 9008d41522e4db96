// The entry `agent-input/agui` for Node.js: its own module, read from disk and instantiated
// synchronously, as node.js does for the base entry.
import { readFileSync } from 'node:fs';
import { createStreamDecoder, fromAgUi, initSync, toAgUi } from './agent_input_agui.js';

initSync({ module: readFileSync(new URL('./agent_input_agui_bg.wasm', import.meta.url)) });

export { createStreamDecoder, fromAgUi, toAgUi };
