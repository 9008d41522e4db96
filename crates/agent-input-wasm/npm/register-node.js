// The entry `agent-input/register` for Node.js: its own module, read from disk and instantiated
// synchronously, as node.js does for the base entry.
import { readFileSync } from 'node:fs';
import { initSync, planRegistration, predictMlCommons, previewRegistration } from './agent_input_register.js';

initSync({ module: readFileSync(new URL('./agent_input_register_bg.wasm', import.meta.url)) });

export { planRegistration, predictMlCommons, previewRegistration };
