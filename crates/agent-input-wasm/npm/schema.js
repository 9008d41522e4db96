// The entry `agent-input/schema` for browsers and bundlers: agent input schemas (an agent's
// `parameters_schema`, contract §8). It loads its own WebAssembly module, which carries a JSON Schema
// validator and is several times larger than the base package's: import it only where schemas
// are used (a dynamic `import('agent-input/schema')` loads it on demand). See index.js for how the
// module is found.
import init, { checkSchema, formatInputs, formatInputsJson, validateParameters, validateParametersJson } from './agent_input_schema.js';

await init({ module_or_path: new URL('./agent_input_schema_bg.wasm', import.meta.url) });

export { checkSchema, formatInputs, formatInputsJson, validateParameters, validateParametersJson };
