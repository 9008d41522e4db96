// `agent-input/models`: the base entry's functions and `importRequest` with the capability table
// of model families, in a module of its own. The table-driven fixtures run through it in
// conformance.test.mjs and import.test.mjs; here: the entry's shape, the base entry's answer to a
// `model` it cannot check, `model` in the validate options, and `modelFamily`.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';

import { modelsPkg, pkg, projectDir, sizePkg } from './package.mjs';
import { typeCheckTests } from './typecheck.mjs';

const installed = join(projectDir, 'node_modules', 'agent-input');

/** `{code, path}` of each diagnostic. */
const keys = (list) => list.map((d) => `${d.code} ${d.path}`);

/** A PNG's signature and header: `width` × `height` px, no pixels (the header is what is read). */
function png(width, height) {
  const header = Buffer.alloc(8 + 8 + 13);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header.set([8, 2, 0, 0, 0], 24);
  return header.toString('base64');
}

const image = (data) => ({ type: 'image', source: { type: 'base64', format: 'png', data } });

describe('agent-input/models', () => {
  test('is its own entry and module, which the base entry does not load', () => {
    assert.deepEqual(Object.keys(modelsPkg).sort(), [
      'convert',
      'convertInput',
      'convertJson',
      'detectInputType',
      'extractQuestion',
      'importRequest',
      'modelFamily',
      'modelSource',
      'providerForBody',
      'providerForUrl',
      'providers',
      'validate',
      'validateInput',
      'validateJson',
      'version',
    ]);
    assert.equal(pkg.modelFamily, undefined);
    assert.equal(modelsPkg.version, pkg.version);
    for (const file of ['index.js', 'node.js', 'agent_input.js', 'import.js', 'import-node.js']) {
      assert.ok(!readFileSync(join(installed, file), 'utf8').includes('models_bg'), `${file} loads the models module`);
    }
    for (const file of ['models.js', 'models-node.js']) {
      assert.match(readFileSync(join(installed, file), 'utf8'), /agent_input_models_bg\.wasm/);
    }
  });

  test('its .wasm is within 224 KiB gzip', (t) => {
    const wasm = readFileSync(join(installed, 'agent_input_models_bg.wasm'));
    const gzip = gzipSync(wasm, { level: 9 }).length;
    // 226,163 B by Node's zlib (the base entry's functions, importRequest and the model table, with
    // provider fields); 199,773 B by gzip -9 before them.
    t.diagnostic(`agent_input_models_bg.wasm: ${wasm.length} B raw, ${gzip} B gzip`);
    assert.ok(gzip <= 224 * 1024, `agent_input_models_bg.wasm is ${gzip} B gzip, over its budget of 224 KiB`);
  });

  test('the base entry takes a model with a warning that names the entry to load', () => {
    const request = { input: 'Hello' };
    for (const [name, entry] of [['node.js', pkg], ['index.js', sizePkg]]) {
      const converted = entry.convert(request, { provider: 'openai-chat', model: 'o3-mini', temperature: 0.2 });
      assert.equal(converted.ok, true, `${name}: ${JSON.stringify(converted.errors)}`);
      assert.deepEqual(keys(converted.warnings), ['unknown_model /options/model']);
      assert.match(converted.warnings[0].message, /import agent-input\/models to check it/);
      const json = entry.convertJson(JSON.stringify(request), { provider: 'openai-chat', model: 'o3-mini' });
      assert.deepEqual(keys(json.warnings), ['unknown_model /options/model']);
      const validated = entry.validate(request, { model: 'o3-mini' });
      assert.equal(validated.valid, true, name);
      assert.deepEqual(keys(validated.warnings), ['unknown_model /options/model']);
      assert.match(validated.warnings[0].message, /agent-input\/models/);
      assert.equal(validated.warnings[0].received, 'o3-mini');
    }
    // The models entry checks the same request and refuses it, naming the model.
    const refused = modelsPkg.convert(request, { provider: 'openai-chat', model: 'o3-mini', temperature: 0.2 });
    assert.equal(refused.ok, false);
    assert.deepEqual(keys(refused.errors), ['invalid_parameter /options/temperature']);
    assert.match(refused.errors[0].message, /o3-mini/);
  });

  test('validate takes the model: refused by the model that refuses, taken by one that takes it', () => {
    const request = { input: [{ type: 'text', text: 'What is it?' }, image(png(64, 64))] };
    const refused = modelsPkg.validate(request, { model: 'o3-mini' });
    assert.equal(refused.valid, false);
    assert.deepEqual(keys(refused.errors), ['unsupported_by_provider /input/1']);
    assert.match(refused.errors[0].message, /o3-mini|o3 mini/i);
    for (const validate of [modelsPkg.validate, (r, o) => modelsPkg.validateJson(JSON.stringify(r), o)]) {
      const taken = validate(request, { model: 'o4-mini' });
      assert.deepEqual([taken.valid, taken.errors, taken.warnings], [true, [], []]);
    }
    const input = modelsPkg.validateInput(request.input, { model: 'o3-mini' });
    assert.deepEqual(keys(input.errors), ['unsupported_by_provider /1']);
    // A model the table does not know: valid, with the warning, whose words name no entry.
    const unknown = modelsPkg.validate(request, { model: 'my-fine-tune' });
    assert.equal(unknown.valid, true);
    assert.deepEqual(keys(unknown.warnings), ['unknown_model /options/model']);
    assert.doesNotMatch(unknown.warnings[0].message, /agent-input\/models/);
  });

  test('a model that is not a string is an option error, in every entry', () => {
    for (const entry of [pkg, sizePkg, modelsPkg]) {
      for (const model of [5, '', '  ', null, ['gpt-4o']]) {
        const report = entry.validate({ input: 'Hi' }, { model, limits: { maxDepth: 'deep' } });
        if (model === null) {
          // null is no option, as for every other option
          assert.deepEqual(keys(report.errors), ['invalid_parameter /options/limits/maxDepth']);
        } else {
          assert.deepEqual(keys(report.errors).sort(), ['invalid_parameter /options/limits/maxDepth', 'invalid_parameter /options/model']);
        }
        assert.equal(report.valid, false);
      }
    }
  });

  test('the pixel limits, with or without a model', () => {
    const request = { input: [{ type: 'text', text: 'What is it?' }, image(png(9000, 100))] };
    const refused = modelsPkg.convert(request, { provider: 'bedrock-converse' });
    assert.deepEqual(keys(refused.errors), ['provider_limit /input/1/source/data']);
    assert.match(refused.errors[0].message, /9000 × 100 px; Bedrock Converse takes at most 8000 px a side/);
    const wide = modelsPkg.convert({ input: [request.input[0], image(png(8000, 100))] }, { provider: 'bedrock-converse' });
    assert.equal(wide.ok, true, JSON.stringify(wide.errors));
    // OpenAI documents no pixel limit: it scales.
    assert.equal(modelsPkg.convert(request, { provider: 'openai-chat', model: 'gpt-4o' }).ok, true);
  });

  test('modelFamily reads the table as the checks do', () => {
    const claude = modelsPkg.modelFamily('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    assert.equal(claude.vendor, 'anthropic');
    assert.equal(claude.imageInput, 'yes');
    assert.equal(modelsPkg.modelFamily('o3-mini').imageInput, 'no');
    assert.equal(modelsPkg.modelFamily('models/gemini-2.5-flash').id, 'gemini-2.5-flash');
    assert.equal(modelsPkg.modelFamily('my-fine-tune'), null);
    // A new minor version is not guessed into its elders' family.
    assert.equal(modelsPkg.modelFamily('claude-opus-4-9'), null);
    assert.throws(() => modelsPkg.modelFamily(5), TypeError);
    assert.match(modelsPkg.modelSource, /^litellm \d+\.\d+\.\d+ \(\d{4}-\d{2}-\d{2}\)$/);
  });
});

typeCheckTests('agent-input/models type-checks a strict consumer', 'models.ts');
