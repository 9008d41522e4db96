// Every conformance fixture through the package's JavaScript API, with the expectations and the
// comparison of the core's runner (tests/conformance.rs, tests/support.rs). A case runs through
// every function that takes its subject: requests through `validate`/`convert` (JavaScript values)
// and `validateJson`/`convertJson` (text), bare inputs through `validateInput`/`convertInput`,
// raw request text through the Json variants only.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { modelsPkg, pkg, responsePkg, schemaPkg, sizePkg } from './package.mjs';
import {
  checkConversion,
  checkResponse,
  checkDiagnostics,
  checkValidation,
  convertOptions,
  limitsOption,
  loadAll,
  loadResponses,
  subject,
} from './support.mjs';

/** The input a case's subject carries, or undefined when it has none to read. */
function inputOf(s) {
  if (s.kind === 'bare') return s.value;
  let request = s.value;
  if (s.kind === 'raw') {
    try {
      request = JSON.parse(s.text.replace(/^\ufeff/, ''));
    } catch {
      return undefined;
    }
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return undefined;
  if ('input' in request) return request.input;
  const question = request.parameters?.question;
  return typeof question === 'string' ? question : undefined;
}

/**
 * A case with an agent's `parameters_schema`, through `agent-input/schema`: as a JavaScript value
 * and as the exact request text (whose numbers a value cannot keep: `300.0` is `300` in
 * JavaScript, so the value's formatted prompt is compared only when nothing was lost).
 */
function runSchema(c, s, exactRequest, validateOptions, section) {
  if (s.kind !== 'request') throw new Error(`case ${c.name}: a schema case needs a request`);
  if (JSON.stringify(s.value) !== JSON.stringify(c.request)) throw new Error(`case ${c.name}: generated payloads`);
  const lossless = JSON.stringify(s.value) === exactRequest;
  const runs = [
    ['validateParameters', () => schemaPkg.validateParameters(s.value, c.schema, validateOptions)],
    ['validateParametersJson', () => schemaPkg.validateParametersJson(exactRequest, c.schema, validateOptions)],
  ];
  for (const [name, call] of runs) {
    const problems = [];
    checkValidation(c, call(), problems);
    section(name, problems);
  }
  const formats = [
    ['formatInputs', schemaPkg.formatInputs(s.value, c.schema, validateOptions), lossless],
    ['formatInputsJson', schemaPkg.formatInputsJson(exactRequest, c.schema, validateOptions), true],
  ];
  for (const [name, formatted, comparePrompt] of formats) {
    const problems = [];
    if (formatted.ok !== c.expect.valid) problems.push(`ok is ${formatted.ok}, expected ${c.expect.valid}`);
    if (comparePrompt && 'formatted_prompt' in c.expect && formatted.prompt !== c.expect.formatted_prompt) {
      problems.push(`prompt ${JSON.stringify(formatted.prompt)}, expected ${JSON.stringify(c.expect.formatted_prompt)}`);
    }
    checkDiagnostics('error', c.expect.errors, formatted.errors, problems);
    checkDiagnostics('warning', c.expect.warnings, formatted.warnings, problems);
    section(name, problems);
  }
}

function run(c, exactRequest, pkg) {
  const out = [];
  const section = (name, problems) => {
    if (problems.length) out.push(`[${name}]`, ...problems.map((p) => `  ${p}`));
  };
  const s = subject(c);
  if ('schema' in c) {
    const limits = limitsOption(c.limits);
    runSchema(c, s, exactRequest, limits ? { limits } : undefined, section);
    return out;
  }
  const limits = limitsOption(c.limits);
  const validateOptions = limits ? { limits } : undefined;

  // Validation.
  const reports = [];
  if (s.kind === 'request') {
    reports.push(['validate', pkg.validate(s.value, validateOptions)]);
    reports.push(['validateJson', pkg.validateJson(JSON.stringify(s.value), validateOptions)]);
  } else if (s.kind === 'bare') {
    reports.push(['validateInput', pkg.validateInput(s.value, validateOptions)]);
  } else {
    reports.push(['validateJson', pkg.validateJson(s.text, validateOptions)]);
  }
  for (const [name, report] of reports) {
    const problems = [];
    checkValidation(c, report, problems);
    section(name, problems);
  }

  // The question and the input type, from the input: a bare input, or a request's `input` (or
  // its legacy `parameters.question`, which is text input).
  const input = inputOf(s);
  if ('question' in c.expect && c.expect.valid && input !== undefined) {
    const question = pkg.extractQuestion(input);
    if (question !== c.expect.question) {
      out.push(`[extractQuestion] ${JSON.stringify(question)}, expected ${JSON.stringify(c.expect.question)}`);
    }
  }
  // Only where the input alone decides the type: not under other limits, and not when the
  // request failed before its input was looked at.
  const early = (c.expect.errors ?? []).some((e) => ['invalid_json', 'too_large', 'too_deep'].includes(e.code));
  if ('input_type' in c.expect && input !== undefined && !c.limits && !early) {
    const inputType = pkg.detectInputType(input);
    if (inputType !== c.expect.input_type) {
      out.push(`[detectInputType] ${JSON.stringify(inputType)}, expected ${JSON.stringify(c.expect.input_type)}`);
    }
  }

  // Conversion, per provider.
  for (const [provider, entry] of Object.entries(c.expect.convert ?? {})) {
    // ml-commons parity mode is the core's and the CLI's, not the package's.
    if (entry.options?.ml_commons) continue;
    const camel = convertOptions(provider, entry, c.limits, { camel: true });
    const snake = convertOptions(provider, entry, c.limits, { camel: false });
    const results = [];
    if (s.kind === 'request') {
      results.push(['convert', pkg.convert(s.value, camel)]);
      const json = pkg.convertJson(JSON.stringify(s.value), snake);
      results.push(['convertJson', json]);
    } else if (s.kind === 'bare') {
      results.push(['convertInput', pkg.convertInput(s.value, camel)]);
    } else {
      results.push(['convertJson', pkg.convertJson(s.text, snake)]);
    }
    for (const [name, result] of results) {
      const problems = [];
      let report = result;
      if (name === 'convertJson' && result.ok) {
        if (typeof result.body !== 'string') problems.push(`body is ${typeof result.body}, not JSON text`);
        report = { ...result, body: JSON.parse(result.body) };
      }
      checkConversion(c, entry, report, problems);
      section(`${name} ${provider}`, problems);
    }
  }
  return out;
}

const cases = loadAll();
/** Provider entries in ml-commons parity mode (`"ml_commons": true`), which this runner skips. */
const ML_COMMONS_ENTRIES = 17; // 12, the 4 template_placeholder cases (parity mode sets ml_commons) and the provider item ml-commons refuses
const byFile = new Map();
for (const c of cases) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);

// The model's rules and the pixel limits that go with them are in the entry `agent-input/models`
// (the base module has no model table, for its size): its fixtures run there, the others through
// the base entry's two modules.
const needsModels = (file) => file.startsWith('providers-models');

for (const [file, fileCases] of byFile) {
  describe(file, () => {
    for (const { name, case: c, exactRequest } of fileCases) {
      test(name, () => {
        const problems = needsModels(file)
          ? run(c, exactRequest, modelsPkg).map((problem) => `[agent-input/models] ${problem}`)
          : [
              // Node's module (built for speed), then the one browsers load (built for size).
              ...run(c, exactRequest, pkg),
              ...run(c, exactRequest, sizePkg).map((problem) => `[agent_input_bg.wasm] ${problem}`),
            ];
        assert.ok(problems.length === 0, problems.join('\n'));
      });
    }
  });
}

describe('provider responses', () => {
  for (const { file, name, response } of loadResponses()) {
    test(`${file}/${name}`, () => {
      const text = response.raw ?? JSON.stringify(response.body);
      const problems = [];
      checkResponse(response, responsePkg.parseResponse(response.provider, text), problems);
      if (response.body !== undefined) {
        checkResponse(response, responsePkg.parseResponse(response.provider, response.body), problems);
      }
      assert.ok(problems.length === 0, problems.join('\n'));
    });
  }
});

test('the fixtures are all there', () => {
  // A guard against a runner that silently finds nothing.
  assert.ok(cases.length >= 400, `only ${cases.length} cases`);
});

test('conversions left to the core: ml-commons parity mode', () => {
  // The package has no parity mode, so these entries are not run here (the core's and the CLI's
  // runners run them). Counted so that a new one is a decision, not an accident.
  const parity = cases.flatMap(({ file, name, case: c }) =>
    Object.values(c.expect.convert ?? {}).filter((e) => e.options?.ml_commons).map(() => `${file}/${name}`),
  );
  assert.equal(parity.length, ML_COMMONS_ENTRIES, `parity-mode entries: ${parity.join(', ')}`);
});
