// The entry `agent-input/schema` (agent input schemas, contract §8) from the packed package: what it
// exports, the shapes it returns, what throws, and that the base entry is unchanged. The fixtures
// with a `schema` run through it in conformance.test.mjs.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { pkg, schemaPkg } from './package.mjs';

const SEED = {
  type: 'object',
  required: ['topic', 'format'],
  properties: {
    topic: { type: 'string' },
    format: { type: 'string', enum: ['summary', 'bullet_points', 'essay'] },
    max_words: { type: 'integer', minimum: 50, maximum: 2000 },
  },
  additionalProperties: false,
};

test('agent-input/schema exports exactly its functions; the base entry none of them', () => {
  assert.deepEqual(Object.keys(schemaPkg).sort(), [
    'checkSchema',
    'formatInputs',
    'formatInputsJson',
    'validateParameters',
    'validateParametersJson',
  ]);
  for (const name of Object.keys(schemaPkg)) assert.equal(pkg[name], undefined, `the base entry exports ${name}`);
});

test('validateParameters reports every violation with its schema path', () => {
  const report = schemaPkg.validateParameters(
    { input: 'Write.', parameters: { format: 'poem', max_words: 10 } },
    SEED,
  );
  assert.equal(report.valid, false);
  assert.equal(report.inputType, 'TEXT');
  const found = report.errors.map((e) => [e.code, e.path, e.schemaPath]);
  assert.deepEqual(found.sort(), [
    ['schema_violation', '/parameters/format', '/properties/format/enum'],
    ['schema_violation', '/parameters/max_words', '/properties/max_words/minimum'],
    ['schema_violation', '/parameters/topic', '/required'],
  ]);
  const format = report.errors.find((e) => e.path === '/parameters/format');
  assert.deepEqual(format.expected, ['summary', 'bullet_points', 'essay']);
  assert.equal(format.received, 'poem');
  assert.equal(Object.getPrototypeOf(format), Object.prototype);
});

test('formatInputs returns the runner\'s <inputs> block', () => {
  const result = schemaPkg.formatInputs(
    { input: 'Create content.', parameters: { topic: 'AI Safety', format: 'summary', max_words: 200 } },
    SEED,
  );
  assert.deepEqual(result, {
    ok: true,
    prompt: '<inputs>\ntopic: AI Safety\nformat: summary\nmax_words: 200\n</inputs>\n\nCreate content.',
    errors: [],
    warnings: [],
  });
  const failed = schemaPkg.formatInputs({ input: 'x', parameters: { topic: 1, format: 'essay' } }, SEED);
  assert.equal(failed.ok, false);
  assert.equal('prompt' in failed, false);
  assert.equal(failed.errors[0].path, '/parameters/topic');
});

test('formatInputsJson keeps numbers as the text writes them; a JavaScript value cannot', () => {
  const text = '{"input": "Go.", "parameters": {"whole": 300.0, "big": 1e16}}';
  assert.equal(schemaPkg.formatInputsJson(text, {}).prompt, '<inputs>\nwhole: 300.0\nbig: 1e+16\n</inputs>\n\nGo.');
  assert.equal(
    schemaPkg.formatInputs(JSON.parse(text), {}).prompt,
    '<inputs>\nwhole: 300\nbig: 10000000000000000\n</inputs>\n\nGo.',
  );
  assert.equal(schemaPkg.validateParametersJson('{"input": ', {}).errors[0].code, 'invalid_json');
  assert.throws(() => schemaPkg.formatInputsJson({ input: 'x' }, {}), TypeError);
});

test('checkSchema lists the schema\'s own problems, or gives the merged schema', () => {
  const bad = schemaPkg.checkSchema({ required: 'topic', properties: { n: { type: 'integr' } } });
  assert.equal(bad.valid, false);
  assert.deepEqual(bad.errors.map((e) => e.path).sort(), ['/properties/n/type', '/required']);
  assert.ok(bad.errors.every((e) => e.code === 'invalid_schema'));
  const good = schemaPkg.checkSchema({ properties: { topic: { type: 'string' } } });
  assert.deepEqual(good, {
    valid: true,
    errors: [],
    mergedSchema: {
      properties: { topic: { type: 'string' }, prompt: { type: 'string', minLength: 1 } },
      type: 'object',
      required: ['prompt'],
    },
  });
  assert.equal(schemaPkg.checkSchema([1]).errors[0].code, 'invalid_schema');
});

test('only arguments of the wrong JavaScript type throw', () => {
  assert.throws(() => schemaPkg.validateParameters({ input: 'x' }, undefined), TypeError);
  assert.throws(() => schemaPkg.formatInputs(undefined, {}), TypeError);
  assert.throws(() => schemaPkg.validateParameters({ input: 'x' }, {}, 5), TypeError);
  // Bad input and bad schemas are reports.
  assert.equal(schemaPkg.validateParameters(5, {}).errors[0].code, 'invalid_field_type');
  assert.equal(schemaPkg.validateParameters({ input: 'x' }, 'not a schema').errors[0].code, 'invalid_schema');
});

// In WebAssembly the patterns run on the JavaScript engine's own RegExp (the `u` flag): the
// ECMA-262 dialect JSON Schema specifies, with no engine of its own in the module (a smaller module).
test('patterns are ECMA-262 regular expressions, Unicode properties and look-behind included', () => {
  const schema = {
    properties: {
      name: { type: 'string', pattern: '^\\p{Lu}' },
      price: { type: 'string', pattern: '(?<=\\$)\\d+$' },
    },
    patternProperties: { '^x-\\p{Ll}+$': { type: 'integer' } },
  };
  const good = schemaPkg.validateParameters({ input: 'Go.', parameters: { name: 'Édith', price: 'US$12', 'x-é': 1 } }, schema);
  assert.deepEqual(good.errors, []);
  const bad = schemaPkg.validateParameters({ input: 'Go.', parameters: { name: 'édith', price: '12', 'x-é': 'one' } }, schema);
  assert.deepEqual(
    bad.errors.map((e) => [e.path, e.schemaPath]).sort(),
    [
      ['/parameters/name', '/properties/name/pattern'],
      ['/parameters/price', '/properties/price/pattern'],
      ['/parameters/x-é', '/patternProperties/^x-\\p{Ll}+$/type'],
    ],
  );
  const name = bad.errors.find((e) => e.path === '/parameters/name');
  assert.equal(name.received, 'édith');
  assert.match(name.message, /^parameter 'name' does not match the agent's parameters_schema: 'édith' does not match pattern/);
  // A pattern the engine refuses is the schema's problem, at the pattern.
  const broken = schemaPkg.checkSchema({ properties: { code: { type: 'string', pattern: '(?<' } } });
  assert.deepEqual(broken.errors.map((e) => [e.code, e.path]), [['invalid_schema', '/properties/code/pattern']]);
});
