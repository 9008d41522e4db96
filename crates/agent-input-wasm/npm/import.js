// The entry `agent-input/import` for browsers and bundlers: `importRequest`, a provider's request
// body read into the standard request (and, with `{ to }`, another provider's body), and the
// providers with what tells them apart (`providers`, `providerForUrl`, `providerForBody`). It
// loads its own WebAssembly module, so the base entry stays within its size budget. See index.js
// for how the module is found.
import init, { importRequest, providerForBody, providerForUrl, providers } from './agent_input_import.js';

await init({ module_or_path: new URL('./agent_input_import_bg.wasm', import.meta.url) });

export { importRequest, providerForBody, providerForUrl, providers };
