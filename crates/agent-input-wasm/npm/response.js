// The entry `agent-input/response` for browsers and bundlers: `parseResponse`, a provider's
// response body read into the standard message. It loads its own WebAssembly module, so the base
// entry, which converts requests, stays small. See index.js for how the module is found.
import init, { parseResponse } from './agent_input_response.js';

await init({ module_or_path: new URL('./agent_input_response_bg.wasm', import.meta.url) });

export { parseResponse };
