// The entry `agent-input/agui` for browsers and bundlers: AG-UI `RunAgentInput` ⇄ the standard
// request, and stream decoders from a provider's streaming answer to AG-UI events. It
// loads its own WebAssembly module, so the base entry stays small. See index.js for how the module
// is found.
import init, { createStreamDecoder, fromAgUi, toAgUi } from './agent_input_agui.js';

await init({ module_or_path: new URL('./agent_input_agui_bg.wasm', import.meta.url) });

export { createStreamDecoder, fromAgUi, toAgUi };
