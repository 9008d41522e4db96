// The package's declarations checked as a user's compiler sees them: a TypeScript file from
// types/ is compiled with tsc (pinned in package.json) inside the consumer project that installed
// the packed tarball, under `strict` and with `skipLibCheck: false`, as a Node project (Node's
// module resolution, lib "es2022" and Node's own types, no DOM library) and as a browser project
// (bundlers' resolution, lib "dom"), and with Node's resolution and lib "dom" too.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { projectDir } from './package.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(here, 'node_modules', 'typescript', 'bin', 'tsc');

/** The projects a consumer has: their module resolution and the libraries they see. */
const CONFIGS = [
  // A Node project: no DOM names; @types/node (pinned in package.json) for Node's own.
  { name: 'node', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022'], types: ['node'] },
  { name: 'nodenext-dom', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], types: [] },
  { name: 'bundler-dom', module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom'], types: [] },
];

/** One test per project kind: `types/<file>` compiles with no output at all. */
export function typeCheckTests(title, file) {
  for (const { name, module, moduleResolution, lib, types } of CONFIGS) {
    test(`${title} (${name}: moduleResolution ${moduleResolution}, lib ${lib.join(' ')})`, () => {
      copyFileSync(join(here, 'types', file), join(projectDir, file));
      const config = join(projectDir, `tsconfig.${file.replace(/\.ts$/, '')}.${name}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'es2022',
            module,
            moduleResolution,
            lib,
            types,
            // The consumer project has no @types of its own: Node's are this folder's.
            typeRoots: [join(here, 'node_modules', '@types')],
            skipLibCheck: false,
          },
          files: [file],
        }),
      );
      let output = '';
      try {
        output = execFileSync(process.execPath, [tsc, '-p', config], { cwd: projectDir, encoding: 'utf8' });
      } catch (error) {
        assert.fail(`tsc failed:\n${error.stdout}${error.stderr}`);
      }
      assert.equal(output.trim(), '');
    });
  }
}
