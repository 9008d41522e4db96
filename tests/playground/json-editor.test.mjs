// The JSON editor, in Chromium against a real agent-gateway: its line numbers follow the text (the
// count as lines are typed, the scrolling), the bracket beside the caret is marked with its
// partner and a bracket without one is marked apart, its script is fetched the first time the
// JSON tab is shown, and axe-core finds nothing at 1280 and 390 px.
//
// Run: node --test tests/playground/json-editor.test.mjs   (after scripts/build-site and cargo build -p agent-gateway)

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { axe, openPlayground, setJson, settled, showForm, startPlayground } from './support.mjs';

let playground;
let page;

before(async () => {
  playground = await startPlayground();
  ({ page } = playground);
});

after(() => playground?.close());

const EDITOR = '[data-testid="json-editor"]';

/** The gutter's numbers, and the textarea's line count. */
const lines = () =>
  page.$eval(EDITOR, (t) => ({
    gutter: document.querySelector('[data-testid="json-gutter"] pre').textContent.split('\n'),
    text: t.value.split('\n').length,
  }));

/** Waits until the gutter shows one number a line of the text. */
const numbered = () =>
  page.waitForFunction((selector) => {
    const shown = document.querySelector('[data-testid="json-gutter"] pre')?.textContent.split('\n').length;
    return shown === document.querySelector(selector).value.split('\n').length;
  }, EDITOR);

/** Puts the caret at `offset` (the editor focused), as a click or an arrow key does. */
const caret = (offset) =>
  page.$eval(
    EDITOR,
    (t, o) => {
      t.focus();
      t.setSelectionRange(o, o);
    },
    offset,
  );

/** The marks drawn: `[kind, offset]`, in offset order. */
const marks = () =>
  page.$$eval('.json-overlay mark', (ms) =>
    ms.map((m) => [m.className, Number(m.dataset.offset)]).sort((a, b) => a[1] - b[1]),
  );

const waitMarks = (expected) =>
  page.waitForFunction(
    (want) =>
      JSON.stringify([...document.querySelectorAll('.json-overlay mark')].map((m) => [m.className, Number(m.dataset.offset)]).sort((a, b) => a[1] - b[1])) === want,
    JSON.stringify(expected),
  );

test('the script comes with the JSON tab; the line numbers follow the text and its scrolling', async () => {
  const fetched = () => playground.seen.requests.filter((u) => u.includes('/editor/json_editor.js'));
  assert.deepEqual(fetched(), [], 'not part of the first load');
  assert.equal(await page.$('[data-testid="json-gutter"]'), null);
  const body = { input: Array.from({ length: 60 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text: `turn ${i}` }] })) };
  await setJson(page, JSON.stringify(body, null, 2));
  await numbered();
  assert.equal(fetched().length, 1);
  const before = await lines();
  assert.ok(before.text > 400, `${before.text} lines`);
  assert.deepEqual(before.gutter, Array.from({ length: before.text }, (_, i) => String(i + 1)));

  // Typed lines are numbered as they come; deleted ones go.
  await caret(1);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await numbered();
  assert.equal((await lines()).gutter.length, before.text + 2);
  await page.keyboard.press('Backspace');
  await numbered();
  assert.equal((await lines()).gutter.length, before.text + 1);
  await settled(page);

  // Scrolled, each number stays beside its line: line n's number is level with line n.
  const level = () =>
    page.$eval(EDITOR, (t) => {
      const pre = document.querySelector('[data-testid="json-gutter"] pre');
      const height = parseFloat(getComputedStyle(t).lineHeight);
      const style = getComputedStyle(t);
      const textTop = t.getBoundingClientRect().top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop) - t.scrollTop;
      const first = Math.ceil(t.scrollTop / height);
      return { scrollTop: t.scrollTop, gap: pre.getBoundingClientRect().top + first * height - (textTop + first * height) };
    });
  await page.$eval(EDITOR, (t) => {
    t.scrollTop = 2000;
  });
  await page.waitForFunction(() => document.querySelector('[data-testid="json-gutter"] pre').style.transform === `translateY(-${document.querySelector('[data-testid="json-editor"]').scrollTop}px)`);
  const scrolled = await level();
  assert.ok(scrolled.scrollTop > 1000, `scrolled by ${scrolled.scrollTop}`);
  assert.ok(Math.abs(scrolled.gap) <= 1, `the gutter is ${scrolled.gap}px off its lines`);
  // Scrolled back, the same.
  await page.$eval(EDITOR, (t) => {
    t.scrollTop = 0;
  });
  await page.waitForFunction(() => document.querySelector('[data-testid="json-gutter"] pre').style.transform === 'translateY(0px)');
  assert.ok(Math.abs((await level()).gap) <= 1);
  // The text set by the app (an example), not typed, is numbered too.
  await page.selectOption('[data-testid="example-select"]', { index: 1 });
  await numbered();
  assert.deepEqual(playground.seen.errors, []);
});

test('the bracket beside the caret is marked with its partner; a bracket without one is marked apart', async () => {
  const text = '{\n  "input": [\n    {"role": "user", "content": "a [b] {c}"}\n  ]\n}';
  await setJson(page, text);
  await numbered();
  const close = text.lastIndexOf('}');
  const open = text.indexOf('[');
  const inner = text.indexOf('{', 2);
  // After the first brace: it and the last one; before the array's bracket: it and its partner.
  await caret(1);
  await waitMarks([['match', 0], ['match', close]]);
  await caret(open);
  await waitMarks([['match', open], ['match', text.lastIndexOf(']')]]);
  // Brackets inside a string are text, not brackets.
  await caret(text.indexOf('[b') + 1);
  await waitMarks([]);
  // After the inner object's closing brace.
  await caret(text.indexOf('"}') + 2);
  await waitMarks([['match', inner], ['match', text.indexOf('"}') + 1]]);
  // The mark sits on its bracket: level with the last line, at its start.
  await caret(close + 1);
  await waitMarks([['match', 0], ['match', close]]);
  const placed = await page.$eval(EDITOR, (t) => {
    const style = getComputedStyle(t);
    const rect = t.getBoundingClientRect();
    const mark = [...document.querySelectorAll('.json-overlay mark')].find((m) => Number(m.dataset.offset) === t.value.lastIndexOf('}')).getBoundingClientRect();
    const lastLine = t.value.split('\n').length - 1;
    return {
      dy: mark.top - (rect.top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop) + lastLine * parseFloat(style.lineHeight) - t.scrollTop),
      dx: mark.left - (rect.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft)),
    };
  });
  assert.ok(Math.abs(placed.dy) <= 2 && Math.abs(placed.dx) <= 1, `the mark is off its bracket by ${JSON.stringify(placed)}`);

  // Typed: a bracket left open is marked, the one it fails to close too, and the caret's
  // bracket without a partner is marked as such.
  await caret(close);
  await page.keyboard.type('[');
  await waitMarks([['unmatched', 0], ['unmatched', close], ['unmatched', close + 1]]);
  assert.ok((await marks()).every(([kind]) => kind === 'unmatched'));
  await page.keyboard.press('Backspace');
  await waitMarks([['match', 0], ['match', close]]);
  await settled(page);
  assert.deepEqual(playground.seen.errors, []);
});

test('the JSON is coloured by its syntax, and where it breaks is marked at its line and column', async () => {
  await setJson(page, '{\n  "input": "Hi",\n  "parameters": {"n": 2, "on": true}\n}');
  await numbered();
  await page.waitForFunction(() => document.querySelector('.json-edit')?.classList.contains('colored'));
  const painted = await page.$$eval('[data-testid="json-colors"] span', (spans) =>
    spans.map((s) => [s.className, s.textContent, getComputedStyle(s).color]));
  const of = (kind) => painted.filter(([k]) => k === kind).map(([, text]) => text);
  assert.deepEqual(of('j-key'), ['"input"', '"parameters"', '"n"', '"on"']);
  assert.deepEqual(of('j-str'), ['"Hi"']);
  assert.deepEqual(of('j-num'), ['2']);
  assert.deepEqual(of('j-lit'), ['true']);
  assert.equal(new Set(painted.filter(([k]) => k !== 'j-punct').map(([, , colour]) => colour)).size, 4, 'four colours');
  // The textarea's own text is hidden under the colours, its caret not.
  assert.equal(await page.$eval(EDITOR, (t) => getComputedStyle(t).color), 'rgba(0, 0, 0, 0)');
  // Broken at line 3, column 9 (a missing value): the mark sits there.
  await setJson(page, '{\n  "input": "Hi",\n  "n": ,\n}');
  await page.waitForSelector('[data-testid="json-error-at"]');
  const said = await page.textContent('[data-testid="json-error-at"]');
  const [, line, column] = said.match(/line (\d+), column (\d+)/);
  await page.waitForSelector('[data-testid="json-error-mark"]');
  const mark = await page.$eval('[data-testid="json-error-mark"]', (m) => ({ line: m.dataset.line, column: m.dataset.column, top: m.parentElement.style.top }));
  assert.deepEqual([mark.line, mark.column], [line, column]);
  assert.equal(line, '3');
  const lineHeight = await page.$eval(EDITOR, (t) => parseFloat(getComputedStyle(t).lineHeight));
  assert.equal(parseFloat(mark.top), 2 * lineHeight);
  // Fixed, the mark goes.
  await setJson(page, '{"input": "Hi"}');
  await page.waitForFunction(() => !document.querySelector('[data-testid="json-error-mark"]'));
});

test('axe finds nothing with the JSON editor shown, at 1280 and 390 px', async () => {
  await setJson(page, '{"input": [{"role": "user", "content": "Hi"}]}');
  await numbered();
  await caret(1);
  await page.waitForSelector('.json-overlay mark');
  assert.deepEqual(await axe(page), []);
  const phone = await openPlayground(playground.browser, playground.gateway.base, { width: 390, height: 844 });
  try {
    await showForm(phone.page, 'json');
    await phone.page.waitForSelector('[data-testid="json-gutter"]');
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390px`);
    assert.deepEqual(await axe(phone.page), []);
    assert.deepEqual(phone.seen.errors, []);
  } finally {
    await phone.context.close();
  }
});
