// The entry `agent-input/register` for browsers and bundlers: registration plans for an
// ml-commons cluster. It loads its own WebAssembly module, so the base entry stays
// small. See index.js for how the module is found.
import init, { planRegistration, predictMlCommons, previewRegistration } from './agent_input_register.js';

await init({ module_or_path: new URL('./agent_input_register_bg.wasm', import.meta.url) });

export { planRegistration, predictMlCommons, previewRegistration };
