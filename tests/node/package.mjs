// The package under test, installed the way a user installs it: `npm pack` of the built package
// folder (scripts/build-npm), then `npm install <tarball>` into a fresh temporary project, and
// `import 'agent-input'` from inside that project, so Node resolves it through package.json's
// `exports` like any dependency.
//
// scripts/test installs once and passes the project in AGENT_INPUT_PROJECT; without it, each
// test file installs its own (and removes it when the process exits).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The built package folder: AGENT_INPUT_PACKAGE, or scripts/build-npm's output. */
export const packageDir = process.env.AGENT_INPUT_PACKAGE ?? join(repo, 'target', 'npm', 'agent-input');

function npm(args, cwd) {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Packs the package and installs the tarball into a new project; returns the project folder. */
export function installPackage(dir = packageDir) {
  const project = mkdtempSync(join(tmpdir(), 'agent-input-consumer-'));
  npm(['pack', dir, '--pack-destination', project], project);
  const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${dir} wrote no tarball`);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  npm(['install', `./${tarball}`], project);
  // A module inside the project, so that 'agent-input' resolves from there.
  writeFileSync(join(project, 'entry.mjs'), "export * from 'agent-input';\n");
  return project;
}

let project = process.env.AGENT_INPUT_PROJECT;
if (!project) {
  project = installPackage();
  const installed = project;
  process.on('exit', () => rmSync(installed, { recursive: true, force: true }));
}

/** The installed consumer project. */
export const projectDir = project;

/** The package's exports, imported from inside the consumer project. */
export const pkg = await import(pathToFileURL(join(project, 'entry.mjs')).href);
