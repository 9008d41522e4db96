// The entry for browsers and bundlers (Vite, webpack, a plain <script type="module">).
//
// `new URL('./agent_input_bg.wasm', import.meta.url)` is the one way of naming the module that
// every target understands: a browser resolves it next to this file, and Vite and webpack see it,
// copy the .wasm into the build as an asset and rewrite the URL. Top-level await makes the API
// ready, and synchronous, as soon as the import resolves.
import init, {
  convert,
  convertInput,
  convertJson as convertMarked,
  detectInputType,
  extractQuestion,
  packageVersion,
  takeSplices,
  validate,
  validateInput,
  validateJson,
} from './agent_input.js';
import { splicing } from './splice.js';

await init({ module_or_path: new URL('./agent_input_bg.wasm', import.meta.url) });

/** Like `convert`, for JSON text, returning the body as JSON text ready to send. */
const convertJson = splicing(convertMarked, takeSplices);

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
