// The size budget of issue 3 (raised for issue 6's four providers and response reading): at most
// 144 KiB of gzip for the .wasm a browser downloads.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

import { projectDir } from './package.mjs';

const BUDGET = 144 * 1024;
const installed = join(projectDir, 'node_modules', 'agent-input');

test('the .wasm is within 144 KiB gzip', (t) => {
  const wasm = readFileSync(join(installed, 'agent_input_bg.wasm'));
  const gzip = gzipSync(wasm, { level: 9 }).length;
  t.diagnostic(`agent_input_bg.wasm: ${wasm.length} B raw, ${gzip} B gzip (budget ${BUDGET} B)`);
  assert.ok(gzip <= BUDGET, `${gzip} B gzip is over the budget of ${BUDGET} B`);
});

test('the JavaScript a browser loads is small', () => {
  let total = 0;
  for (const file of ['index.js', 'agent_input.js']) total += gzipSync(readFileSync(join(installed, file)), { level: 9 }).length;
  assert.ok(total < 8 * 1024, `${total} B gzip of JavaScript`);
});
