// The package under test, installed the way a user installs it (install.mjs) and imported from
// inside the consumer project, so Node resolves `agent-input` through package.json's `exports`
// like any dependency.
//
// scripts/test installs once and passes the project in AGENT_INPUT_PROJECT; without it, each
// test file installs its own (and removes it when the process exits).

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { installPackage } from './install.mjs';

let project = process.env.AGENT_INPUT_PROJECT;
if (!project) {
  project = installPackage();
  const installed = project;
  process.on('exit', () => rmSync(installed, { recursive: true, force: true }));
}

/** The installed consumer project. */
export const projectDir = project;

// A module inside the project, so that 'agent-input' resolves from there.
const entry = join(project, 'entry.mjs');
writeFileSync(entry, "export * from 'agent-input';\n");

/** The package's exports, imported from inside the consumer project. */
export const pkg = await import(pathToFileURL(entry).href);

// Likewise for the entry `agent-input/schema` (agent input schemas), which has its own module.
const schemaEntry = join(project, 'schema-entry.mjs');
writeFileSync(schemaEntry, "export * from 'agent-input/schema';\n");

/** The exports of `agent-input/schema`. */
export const schemaPkg = await import(pathToFileURL(schemaEntry).href);

// And for `agent-input/response` (`parseResponse`, out of the base entry since 0.2.0).
const responseEntry = join(project, 'response-entry.mjs');
writeFileSync(responseEntry, "export * from 'agent-input/response';\n");

/** The exports of `agent-input/response`. */
export const responsePkg = await import(pathToFileURL(responseEntry).href);

// And for `agent-input/import` (`importRequest`: a provider's request into the standard one).
const importEntry = join(project, 'import-entry.mjs');
writeFileSync(importEntry, "export * from 'agent-input/import';\n");

/** The exports of `agent-input/import`. */
export const importPkg = await import(pathToFileURL(importEntry).href);

// And for `agent-input/models` (the base entry's functions and `importRequest` with the model
// table: `model` checked, and the pixel limits).
const modelsEntry = join(project, 'models-entry.mjs');
writeFileSync(modelsEntry, "export * from 'agent-input/models';\n");

/** The exports of `agent-input/models`. */
export const modelsPkg = await import(pathToFileURL(modelsEntry).href);

// The module browsers and bundlers load (index.js; built for size, where node.js's is built for
// speed), run here too: the bindings imported again under another URL are a second instance,
// given agent_input_bg.wasm, with convertJson's splicing as index.js adds it.
const installed = join(project, 'node_modules', 'agent-input');
const glue = await import(`${pathToFileURL(join(installed, 'agent_input.js')).href}?size`);
glue.initSync({ module: readFileSync(join(installed, 'agent_input_bg.wasm')) });
const { splicing } = await import(pathToFileURL(join(installed, 'splice.js')).href);

/** The base entry's functions on the browsers' module. */
export const sizePkg = { ...glue, convertJson: splicing(glue.convertJson, glue.takeSplices) };

// Likewise `agent-input/import`: import-node.js loads the module built for speed, browsers and
// bundlers agent_input_import_bg.wasm.
const importGlue = await import(`${pathToFileURL(join(installed, 'agent_input_import.js')).href}?size`);
importGlue.initSync({ module: readFileSync(join(installed, 'agent_input_import_bg.wasm')) });

/** `agent-input/import`'s functions on the browsers' module. */
export const sizeImportPkg = {
  importRequest: importGlue.importRequest,
  providers: importGlue.providers,
  providerForUrl: importGlue.providerForUrl,
  providerForBody: importGlue.providerForBody,
};
