// The modules the app loads on demand, each from its folder of the site the first time it is
// needed, so none is part of the first download: agent-input/schema's JSON Schema validator
// (schema/, when the schema editor is turned on), agent-input/register's planner with the Deploy
// view's script (register/, when "Deploy to OpenSearch" is opened), agent-input/import's
// importers with the Import view's script (import/, when "Import a provider request" is opened),
// the JSON editor's line numbers and bracket matching (editor/, when the JSON tab is shown),
// "Copy as code" (export/, when one is first opened), and the drawing of "Shrink to fit" (shrink/,
// when the button is first clicked).
// Same-origin module imports, so the page's Content-Security-Policy (script-src 'self'
// 'wasm-unsafe-eval') allows them. The app passes JSON text both ways.
const loads = {};

/**
 * Imports `folder/name.js` and the view script `view` (if any), instantiates the module's wasm
 * and hands both to `ready`, once; a failed load (offline, a missing file) may be retried.
 */
function load(folder, name, view, ready) {
  if (!loads[folder]) {
    loads[folder] = (async () => {
      const base = new URL(`${folder}/`, document.baseURI);
      const [module, script] = await Promise.all([
        import(new URL(`${name}.js`, base).href),
        view && import(new URL(view, base).href),
      ]);
      await module.default({ module_or_path: new URL(`${name}_bg.wasm`, base) });
      ready(module, script);
    })();
    loads[folder].catch(() => {
      loads[folder] = null;
    });
  }
  return loads[folder];
}

let schema;

export function schemaLoad() {
  return load('schema', 'agent_input_schema', null, (module) => {
    schema = module;
  });
}

export function schemaCheck(schemaText) {
  return JSON.stringify(schema.checkSchema(JSON.parse(schemaText)));
}

export function schemaFormat(bodyText, schemaText, allowPrefill) {
  return JSON.stringify(schema.formatInputsJson(bodyText, JSON.parse(schemaText), { allowPrefill }));
}

let deployFacts = null;
let deployUpdate = null;

/** Draws the Deploy view into `host`; `curl(report, version)` writes a plan's curl script. */
export function deployOpen(host, curl) {
  return load('register', 'agent_input_register', 'deploy_view.js', (module, view) => {
    deployUpdate = view.mount(host, module.planRegistration, curl, deployFacts);
  });
}

/** What the conversion settings give the registration body (JSON text), as they change. */
export function deploySettings(factsText) {
  deployFacts = JSON.parse(factsText);
  deployUpdate?.(deployFacts);
}

/** Draws the Import view into `host`; `apply` gets each import's standard request. */
export function importOpen(host, apply) {
  return load('import', 'agent_input_import', 'import_view.js', (module, view) => {
    view.mount(host, module.importRequest, apply);
  });
}

/** Draws "Copy as code" into `host` (its script from export/); `make()` says what the request is. */
export function codeOpen(host, testid, what, make) {
  return import(new URL('export/code_view.js', document.baseURI).href).then((m) => m.mount(host, testid, what, make));
}

let jsonEditor = null;

/** Numbers the JSON editor's lines and matches its brackets, once; a failed load is retried. */
export function jsonEditorOpen(textarea) {
  if (!jsonEditor) {
    jsonEditor = import(new URL('editor/json_editor.js', document.baseURI).href).then((m) => m.mount(textarea));
    jsonEditor.catch(() => {
      jsonEditor = null;
    });
  }
}

/** The app set the JSON editor's text: the line numbers and marks follow. */
export function jsonEditorRefresh() {
  jsonEditor?.then((refresh) => refresh());
}

/**
 * "Shrink to fit": the image (base64 `data` of MIME `type`) drawn smaller by shrink/shrink.js,
 * imported on the first click; `done` gets its JSON text, or `{ error }` when the script did not
 * load (a later click tries again).
 */
export function shrinkToFit(data, type, maxSide, maxBytes, done) {
  import(new URL('shrink/shrink.js', document.baseURI).href).then(
    (m) => m.shrinkToFit(data, type, maxSide, maxBytes, done),
    (error) => done(JSON.stringify({ error: `the shrinking script did not load (${error?.message ?? error})` })),
  );
}
