// The conformance fixtures (tests/fixtures/*.json, tests/README.md) through the playground's UI:
// each case's request goes into the JSON editor; the validation list (data-code, data-path) is
// compared as a multiset, and for every provider a case gives in `expect.convert` that provider is
// selected and its body (the converse-output JSON as a value, long base64 shortened the way the
// view shortens it) or conversion errors compared. Cases with a `schema` (agent_schema.json) go
// through the schema editor: its `invalid_schema` list, the validation list's `schema_violation`s
// and the formatted prompt preview. Cases run in batches inside the page, so the whole set takes
// seconds.
//
// Not through the UI: bare inputs (the editor holds a request body) and cases with custom
// limits (the playground validates with the default limits). Both are counted and reported.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { checkDiagnostics, loadAll, subject } from '../node/support.mjs';
import { checkShownBody, settingsFields, settled, showForm, startPlayground } from './support.mjs';

const PROVIDER = 'bedrock-converse'; // the selector's default, used for the validation runs

let playground;
let page;

before(async () => {
  playground = await startPlayground();
  ({ page } = playground);
  await showForm(page, 'json');
  await page.$eval('.settings', (d) => (d.open = true));
  providers = await page.$$eval('[data-testid="provider-select"] option', (os) => os.map((o) => o.value));
});

let providers = [];

after(() => playground?.close());

/** The settings fields for a provider entry's options, or null when a field cannot hold them. */
const settingsFor = settingsFields;

/** Runs a batch of `{text, settings}` in the page; returns what the UI shows for each. */
function runBatch(batch) {
  return page.evaluate(async (items) => {
    const app = document.querySelector('.app');
    const editor = document.querySelector('[data-testid="json-editor"]');
    // Waits for an analysis newer than `rev0`, then for the panes to show it.
    const settle = (rev0) =>
      new Promise((resolve) => {
        const check = () =>
          Number(app.dataset.rev) > rev0 && app.dataset.rev === app.dataset.analyzedRev
            ? setTimeout(() => requestAnimationFrame(resolve), 0)
            : setTimeout(check, 0);
        check();
      });
    // `always`: typed even when the field shows the value (the model field shows the provider's
    // own model, which a provider chosen just before may not have drawn yet).
    const setField = (selector, value, always = false) => {
      const el = document.querySelector(selector);
      if (el.tagName === 'SELECT') {
        if (el.value !== value) {
          el.value = value;
          el.dispatchEvent(new Event('change', { bubbles: true }));
        }
      } else if (el.type === 'checkbox') {
        if (el.checked !== value) {
          el.checked = value;
          el.dispatchEvent(new Event('change', { bubbles: true }));
        }
      } else if (always || el.value !== value) {
        el.value = value;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }
    };
    const list = (testid) =>
      [...document.querySelectorAll(`[data-testid="${testid}"]`)].map((li) => {
        const d = { code: li.dataset.code, path: li.dataset.path, severity: li.dataset.severity };
        d.message = li.querySelector('.message')?.textContent;
        if (li.dataset.expected !== undefined) d.expected = JSON.parse(li.dataset.expected);
        if (li.dataset.received !== undefined) d.received = li.dataset.received;
        if (li.dataset.limit !== undefined) d.limit = Number(li.dataset.limit);
        if (li.dataset.actual !== undefined) d.actual = Number(li.dataset.actual);
        if (li.dataset.schemaPath !== undefined) d.schemaPath = li.dataset.schemaPath;
        return d;
      });
    const results = [];
    const schemaReady = () =>
      new Promise((resolve, reject) => {
        const check = () => {
          const state = document.querySelector('[data-testid="schema-status"]')?.dataset.state;
          if (state === 'ready') resolve();
          else if (state === 'failed') reject(new Error('the schema module did not load'));
          else setTimeout(check, 10);
        };
        check();
      });
    for (const { text, settings, provider, schema } of items) {
      let rev0 = Number(app.dataset.rev);
      setField('[data-testid="provider-select"]', provider);
      setField('[data-testid="schema-editor"]', schema ?? '');
      setField('[data-testid="schema-toggle"]', schema !== null);
      if (schema !== null) {
        await schemaReady();
        // The load counts an edit of its own (before it shows as ready): count from there.
        rev0 = Number(app.dataset.rev);
      }
      setField('[data-testid="system-prompt"]', settings.system);
      setField('[data-testid="model"]', settings.model, true);
      setField('#max-tokens', settings.max_tokens);
      setField('#temperature', settings.temperature);
      setField('#top-p', settings.top_p);
      setField('#stop-sequences', settings.stop_sequences);
      setField('[data-testid="tools"]', settings.tools);
      setField('[data-testid="provider-fields"]', settings.provider_fields);
      setField('[data-testid="allow-prefill"]', settings.allow_prefill);
      setField('[data-testid="tool-choice"]', settings.tool_choice);
      setField('[data-testid="tool-choice-name"]', settings.tool_choice_name);
      setField('[data-testid="prompt-cache"]', settings.prompt_cache);
      setField('[data-testid="prompt-cache-ttl"]', settings.prompt_cache_ttl);
      setField('[data-testid="response-schema"]', settings.response_schema);
      setField('[data-testid="response-name"]', settings.response_name);
      setField('[data-testid="reasoning"]', settings.reasoning);
      setField('[data-testid="reasoning-budget"]', settings.reasoning_budget);
      editor.value = text;
      editor.dispatchEvent(new Event('input', { bubbles: true }));
      await settle(rev0);
      const summary = document.querySelector('[data-testid="validation-summary"]');
      const question = document.querySelector('[data-testid="question"]');
      results.push({
        valid: summary.dataset.valid === 'true',
        inputType: summary.dataset.inputType === 'null' ? null : summary.dataset.inputType,
        diagnostics: list('validation-error'),
        conversionErrors: list('conversion-error'),
        conversionWarnings: list('conversion-warning'),
        output: document.querySelector('[data-testid="converse-output"]')?.textContent ?? '',
        question: question ? question.textContent : null,
        schemaProblems: list('schema-problem'),
        formattedPrompt: document.querySelector('[data-testid="formatted-prompt"]')?.textContent ?? null,
      });
    }
    return results;
  }, batch);
}

/** What the run leaves out (see the log line), and the prefill cases that are invalid by default
 * but converted with `allow_prefill`; tests/README.md explains each kind. */
// `options`: 11 before the request features; 5 parity-mode (`ml_commons`) entries; and 21 of the
// request features': values the controls cannot write (tool_choice "sometimes", a "2h" ttl,
// response_format with description or strict, or no schema). `invalidConverted`: 4, and 8 from the
// two regression cases of a prefill whose tool call is never answered (3 and 5 providers).
const EXPECTED_SKIPS = { bare: 14, limits: 15, options: 38, providers: 2, invalidConverted: 12 };

test('every conformance fixture through the playground UI', async () => {
  const start = Date.now();
  const all = loadAll();
  const defaults = settingsFor({});
  const jobs = [];
  const skipped = { bare: 0, limits: 0, options: 0, providers: 0 };
  let invalidConverted = 0; // cases invalid by default that convert with their options (prefill)
  let schemaCases = 0;
  let prompts = 0;
  const perProvider = {};
  for (const { file, name, case: c, exactRequest } of all) {
    if ('bare' in c) {
      skipped.bare++;
      continue;
    }
    if (c.limits) {
      skipped.limits++;
      continue;
    }
    const s = subject(c);
    // The exact text (numbers as written: a schema case's `300.0` is formatted as Python writes it).
    const schema = 'schema' in c ? JSON.stringify(c.schema) : null;
    const text = s.kind === 'raw' ? s.text : schema !== null ? exactRequest : JSON.stringify(s.value);
    if (schema !== null) schemaCases++;
    // Validation is checked with default settings and the default provider (as every runner
    // validates); each provider's conversion in a run of its own with its options set (the
    // default provider's rides on the validation run when it needs no options).
    const validation = { id: `${file}/${name}`, c, text, settings: defaults, provider: PROVIDER, schema, check: 'validation' };
    jobs.push(validation);
    for (const [provider, entry] of Object.entries(c.expect.convert ?? {})) {
      if (!providers.includes(provider)) {
        skipped.providers++;
        continue;
      }
      const settings = settingsFor(entry.options);
      if (settings === null) {
        skipped.options++;
        continue;
      }
      const plain = !entry.options?.allow_prefill && JSON.stringify(settings) === JSON.stringify(defaults);
      if (plain && provider === PROVIDER) {
        validation.entry = entry;
      } else {
        jobs.push({ id: `${file}/${name} (${provider})`, c, entry, text, settings, provider, schema, check: 'conversion' });
      }
    }
  }

  const failures = [];
  let compared = 0;
  let bodies = 0;
  const BATCH = 40;
  for (let i = 0; i < jobs.length; i += BATCH) {
    const batch = jobs.slice(i, i + BATCH);
    const results = await runBatch(batch.map((j) => ({ text: j.text, settings: j.settings, provider: j.provider, schema: j.schema })));
    batch.forEach((job, k) => {
      const got = results[k];
      const out = [];
      const { c, entry } = job;
      if (job.check === 'validation') {
        compared++;
        if (got.valid !== c.expect.valid) out.push(`valid is ${got.valid}, expected ${c.expect.valid}`);
        if ('input_type' in c.expect && got.inputType !== c.expect.input_type) {
          out.push(`input type is ${got.inputType}, expected ${c.expect.input_type}`);
        }
        const errors = got.diagnostics.filter((d) => d.severity === 'error');
        const warnings = got.diagnostics.filter((d) => d.severity === 'warning');
        // A schema's own problems are listed at the schema editor.
        const expected = c.expect.errors ?? [];
        checkDiagnostics('schema problem', expected.filter((e) => e.code === 'invalid_schema'), got.schemaProblems, out);
        checkDiagnostics('error', expected.filter((e) => e.code !== 'invalid_schema'), errors, out);
        if ('formatted_prompt' in c.expect) {
          prompts++;
          if (got.formattedPrompt !== c.expect.formatted_prompt) {
            out.push(`formatted prompt is ${JSON.stringify(got.formattedPrompt)}, expected ${JSON.stringify(c.expect.formatted_prompt)}`);
          }
        }
        checkDiagnostics('warning', c.expect.warnings, warnings, out);
        if (c.expect.valid && 'question' in c.expect && got.question !== c.expect.question) {
          out.push(`question is ${JSON.stringify(got.question)}, expected ${JSON.stringify(c.expect.question)}`);
        }
      }
      if (entry) {
        if (!c.expect.valid) invalidConverted++;
        if ('body' in entry) {
          bodies++;
          perProvider[job.provider] = (perProvider[job.provider] ?? 0) + 1;
          checkShownBody(entry, got.output, got.conversionErrors, out, 1500);
        } else if (!(Array.isArray(entry.errors) && entry.errors.length === 0)) {
          if (got.output !== '') out.push('conversion succeeded but errors were expected');
        }
        checkDiagnostics('conversion error', entry.errors, got.conversionErrors, out);
        // The view lists the conversion's own warnings; the case's validation warnings are in the
        // validation list.
        checkDiagnostics('conversion warning', entry.warnings, got.conversionWarnings, out);
      }
      if (out.length) failures.push(`${job.id}:\n  ${out.join('\n  ')}`);
    });
  }
  const seconds = ((Date.now() - start) / 1000).toFixed(1);
  console.log(
    `# playground fixtures: ${compared} cases validated (${schemaCases} through the schema editor, ${prompts} formatted prompts), ` +
      `${bodies} provider bodies compared (${JSON.stringify(perProvider)}), in ${seconds} s; ` +
      `not through the UI: ${skipped.bare} bare inputs, ${skipped.limits} with custom limits, ` +
      `${skipped.options} conversions with options a text field cannot hold, ${skipped.providers} with an unknown provider name`,
  );
  assert.equal(failures.length, 0, `${failures.length} cases differ:\n${failures.slice(0, 30).join('\n')}`);
  assert.ok(compared > 300, `only ${compared} cases ran`);
  // What the UI cannot take is counted, not silently dropped: a changed count is a decision.
  assert.deepEqual({ ...skipped, invalidConverted }, EXPECTED_SKIPS, 'cases kept from the UI (or converted though invalid) changed');
  assert.equal(new Set(Object.keys(perProvider)).size, providers.length, `bodies compared for ${Object.keys(perProvider)} only`);
  assert.ok(schemaCases > 20 && prompts > 10, `only ${schemaCases} schema cases and ${prompts} prompts ran`);
});
