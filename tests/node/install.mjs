// Installing the package the way a user does: `npm pack` of the built package folder
// (scripts/build-npm's output), then `npm install <tarball>` into a fresh temporary project.
// Shared by the Node tests (package.mjs) and the browser tests (tests/e2e).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/**
 * Packs the package and installs the tarball into a new project (an ES module package named
 * `consumer`); returns the project folder. `prefix` names the temporary folder.
 */
export function installPackage({ dir = packageDir, prefix = 'agent-input-consumer-' } = {}) {
  const project = mkdtempSync(join(tmpdir(), prefix));
  npm(['pack', dir, '--pack-destination', project], project);
  const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${dir} wrote no tarball`);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  npm(['install', `./${tarball}`], project);
  return project;
}
