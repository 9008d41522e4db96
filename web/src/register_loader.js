// Loads agent-input/register's WebAssembly module (site folder register/, built as
// scripts/build-npm builds it) the first time "Deploy to OpenSearch" is opened: the registration
// planner (connector templates, ml-commons' number rules) is not needed to paint the page, so the
// first download stays without it. A same-origin module import, as schema_loader.js. The app
// passes JSON text both ways.
let loading = null;
let api = null;

export function registerLoad() {
  if (!loading) {
    loading = (async () => {
      const base = new URL('register/', document.baseURI);
      const module = await import(new URL('agent_input_register.js', base).href);
      await module.default({ module_or_path: new URL('agent_input_register_bg.wasm', base) });
      api = module;
    })();
    // A failed load (offline, missing file) may be retried.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

export function registerPlan(bodyText, version, api_) {
  const options = { version };
  if (api_) options.api = api_;
  return JSON.stringify(api.planRegistration(bodyText, options));
}
