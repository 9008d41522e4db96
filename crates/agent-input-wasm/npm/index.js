// The entry for browsers and bundlers (Vite, webpack, a plain <script type="module">).
//
// `new URL('./agent_input_bg.wasm', import.meta.url)` is the one way of naming the module that
// every target understands: a browser resolves it next to this file, and Vite and webpack see it,
// copy the .wasm into the build as an asset and rewrite the URL. Top-level await makes the API
// ready, and synchronous, as soon as the import resolves.
import init, {
  convert,
  convertInput,
  convertJson,
  detectInputType,
  extractQuestion,
  packageVersion,
  validate,
  validateInput,
  validateJson,
} from './agent_input.js';

await init({ module_or_path: new URL('./agent_input_bg.wasm', import.meta.url) });

/** The package version. */
export const version = packageVersion();

export {
  convert,
  convertInput,
  convertJson,
  detectInputType,
  extractQuestion,
  validate,
  validateInput,
  validateJson,
};
