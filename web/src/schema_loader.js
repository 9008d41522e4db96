// Loads agent-input/schema's WebAssembly module (site folder schema/, built by scripts/build-npm)
// the first time the schema editor is turned on: its JSON Schema validator is several times the
// playground's own size, so the first download stays without it. A same-origin module import, so
// the page's Content-Security-Policy (script-src 'self' 'wasm-unsafe-eval') allows it. The app
// passes JSON text both ways, so it needs no typed bindings.
let loading = null;
let api = null;

export function schemaLoad() {
  if (!loading) {
    loading = (async () => {
      const base = new URL('schema/', document.baseURI);
      const module = await import(new URL('agent_input_schema.js', base).href);
      await module.default({ module_or_path: new URL('agent_input_schema_bg.wasm', base) });
      api = module;
    })();
    // A failed load (offline, missing file) may be retried.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

export function schemaCheck(schemaText) {
  return JSON.stringify(api.checkSchema(JSON.parse(schemaText)));
}

export function schemaFormat(bodyText, schemaText, allowPrefill) {
  return JSON.stringify(api.formatInputsJson(bodyText, JSON.parse(schemaText), { allowPrefill }));
}
