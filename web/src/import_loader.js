// Loads agent-input/import's WebAssembly module (site folder import/, built as scripts/build-npm
// builds it) the first time "Import a provider request" is opened: the five importers are not
// needed to paint the page, so the first download stays without them. A same-origin module
// import, as register_loader.js. The app passes JSON text both ways.
let loading = null;
let api = null;

export function importLoad() {
  if (!loading) {
    loading = (async () => {
      const base = new URL('import/', document.baseURI);
      const module = await import(new URL('agent_input_import.js', base).href);
      await module.default({ module_or_path: new URL('agent_input_import_bg.wasm', base) });
      api = module;
    })();
    // A failed load (offline, missing file) may be retried.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

export function importRequest(provider, bodyText) {
  return JSON.stringify(api.importRequest(provider, bodyText));
}
