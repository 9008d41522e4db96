// The package's declarations checked as a user's compiler sees them: a TypeScript file from
// types/ is compiled with tsc (pinned in package.json) inside the consumer project that installed
// the packed tarball, under `strict`, with both Node's and bundlers' module resolution.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { projectDir } from './package.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(here, 'node_modules', 'typescript', 'bin', 'tsc');

/** One test per module resolution: `types/<file>` compiles with no output at all. */
export function typeCheckTests(title, file) {
  for (const [module, moduleResolution] of [
    ['nodenext', 'nodenext'],
    ['esnext', 'bundler'],
  ]) {
    test(`${title} (moduleResolution ${moduleResolution})`, () => {
      copyFileSync(join(here, 'types', file), join(projectDir, file));
      const config = join(projectDir, `tsconfig.${file.replace(/\.ts$/, '')}.${moduleResolution}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'es2022',
            module,
            moduleResolution,
            lib: ['es2022', 'dom'],
            types: [],
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
