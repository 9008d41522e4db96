// The packed tarball as packaging linters and CommonJS see it: publint (strict: warnings fail),
// @arethetypeswrong/cli on every entry but the .wasm files (which have no types to resolve), and
// `require()` of each entry from a CommonJS module, which the `engines` range promises. The tools
// are pinned in package.json and read the tarball the consumer project installed.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

import { projectDir } from './package.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const tarball = join(projectDir, readdirSync(projectDir).find((f) => f.endsWith('.tgz')));
const manifest = JSON.parse(readFileSync(join(projectDir, 'node_modules', 'agent-input', 'package.json'), 'utf8'));
const entries = Object.keys(manifest.exports).filter((e) => !e.endsWith('.wasm') && e !== './package.json');

test('publint finds nothing in the tarball, suggestions included', async () => {
  const data = readFileSync(tarball);
  const { messages, pkg } = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
    level: 'suggestion',
    strict: true,
  });
  assert.deepEqual(
    messages.map((m) => `${m.type} ${m.code}: ${formatMessage(m, pkg, { color: false })}`),
    [],
  );
});

test('@arethetypeswrong/cli: every entry typed under Node\'s and bundlers\' ESM resolution; ES modules only', () => {
  const wasm = Object.keys(manifest.exports).filter((e) => e.endsWith('.wasm'));
  assert.deepEqual(entries, ['.', './schema', './agui', './register', './response', './import', './models']);
  const attw = join(here, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
  let output;
  try {
    output = execFileSync(
      process.execPath,
      [attw, tarball, '--profile', 'esm-only', '--format', 'json', '--exclude-entrypoints', ...wasm],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
  } catch (error) {
    const report = JSON.parse(error.stdout);
    assert.fail(`attw found problems:\n${JSON.stringify(report.analysis?.problems ?? report, null, 2)}`);
  }
  const report = JSON.parse(output);
  // Every entry resolved to its declarations under Node's ESM resolution and bundlers'.
  for (const entry of entries) {
    for (const kind of ['node16-esm', 'bundler']) {
      const resolution = report.analysis.entrypoints[entry]?.resolutions[kind]?.resolution;
      assert.match(resolution?.fileName ?? '', /\.d\.ts$/, `${entry} (${kind}) resolves to declarations`);
    }
  }
  // The esm-only profile leaves out CommonJS resolution (node10, node16 from CommonJS): there
  // the one finding is each entry resolving to an ES module, which require() loads in the
  // engines range (the test below).
  const commonJs = new Set(['node10', 'node16-cjs']);
  const { problems } = report.analysis;
  assert.deepEqual(problems.filter((p) => !commonJs.has(p.resolutionKind)), []);
  assert.deepEqual(
    problems.filter((p) => commonJs.has(p.resolutionKind)).map((p) => `${p.entrypoint} ${p.kind}`),
    entries.map((entry) => `${entry} CJSResolvesToESM`),
  );
});

test('engines: the range where require() loads the ES module entries; each one requires from CommonJS', () => {
  // require() of an ES module without a flag: Node 20.19 and 22.12 (and every later release).
  assert.equal(manifest.engines.node, '^20.19.0 || >=22.12.0');
  assert.equal(manifest.type, 'module');
  const script = join(projectDir, 'require-entries.cjs');
  writeFileSync(
    script,
    `const entries = ${JSON.stringify(entries.map((e) => e.replace(/^\./, 'agent-input')))};
     const loaded = Object.fromEntries(entries.map((e) => [e, Object.keys(require(e)).sort()]));
     const { convertJson } = require('agent-input');
     loaded.converted = convertJson('{"input": "Hi"}', { provider: 'gemini' }).ok;
     process.stdout.write(JSON.stringify(loaded));`,
  );
  const loaded = JSON.parse(execFileSync(process.execPath, [script], { cwd: projectDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  assert.equal(loaded.converted, true);
  assert.deepEqual(loaded['agent-input/import'], ['importRequest', 'providerForBody', 'providerForUrl', 'providers']);
  for (const entry of entries) {
    assert.ok(loaded[entry.replace(/^\./, 'agent-input')].length > 0, `${entry} exports something to require()`);
  }
});
