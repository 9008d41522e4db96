// Loads "Import a provider request" the first time the view is opened: agent-input/import's
// WebAssembly module (site folder import/, built as scripts/build-npm builds it) and the view's
// own script (import/import_view.js), so neither the importers nor the view are part of the
// first download. Same-origin module imports, as register_loader.js.
let loading = null;

export function importOpen(host, apply) {
  if (!loading) {
    loading = (async () => {
      const base = new URL('import/', document.baseURI);
      const [module, view] = await Promise.all([
        import(new URL('agent_input_import.js', base).href),
        import(new URL('import_view.js', base).href),
      ]);
      await module.default({ module_or_path: new URL('agent_input_import_bg.wasm', base) });
      view.mount(host, module.importRequest, apply);
    })();
    // A failed load (offline, missing file) may be retried.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}
