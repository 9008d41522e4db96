// Size budgets of the entries `agent-input/agui`, `agent-input/register` and
// `agent-input/response`: each carries its own .wasm, loaded only by code that imports
// the entry, built without the base entry's exports (the wasm crate's default feature `base`). The
// budgets are the measured sizes (Node's zlib: 133,904 B, 176,171 B and 49,971 B) plus about 5%,
// so growth is noticed (scripts/build-npm warns at the same figures); register's is 186 KiB since
// provider fields (188,826 B).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

import { projectDir } from './package.mjs';

const installed = join(projectDir, 'node_modules', 'agent-input');

for (const [entry, budget] of [
  ['agui', 138 * 1024],
  ['register', 186 * 1024],
  ['response', 52 * 1024],
]) {
  test(`agent-input/${entry} has its own .wasm, within ${budget / 1024} KiB gzip`, (t) => {
    const wasm = readFileSync(join(installed, `agent_input_${entry}_bg.wasm`));
    const gzip = gzipSync(wasm, { level: 9 }).length;
    t.diagnostic(`agent_input_${entry}_bg.wasm: ${wasm.length} B raw, ${gzip} B gzip (budget ${budget} B)`);
    assert.ok(gzip <= budget, `${gzip} B gzip is over the budget of ${budget} B`);
    // The base entry does not load it.
    for (const file of ['index.js', 'node.js', 'agent_input.js']) {
      assert.ok(!readFileSync(join(installed, file), 'utf8').includes(`${entry}_bg`), `${file} loads the ${entry} module`);
    }
  });
}
