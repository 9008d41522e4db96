// The JSON editor's line numbers, syntax colours and bracket matching, loaded the first time the
// JSON tab is shown (modules.js), so none is part of the first download. The textarea stays the
// editor (typing, undo, the browser's own find); beside it a gutter of line numbers, behind it an
// overlay that colours the lines in view (keys, strings, numbers, literals), marks the bracket
// beside the caret and its partner, or a bracket without one, and the place where the JSON breaks
// (the app's `data-error-at="line:column"` on the textarea). All follow the textarea's scrolling;
// the work runs after the frame that shows a keystroke, at most once a frame, and only what
// changed is redrawn.

// Past this size the brackets are not matched (a scan a frame would cost too much).
const MATCH_LIMIT = 4_000_000;
// Unmatched brackets marked at most (a half-typed document may have many).
const UNMATCHED_SHOWN = 50;
// Past this size the text is not coloured (it shows in the textarea's own colour).
const COLOR_LIMIT = 2_000_000;
// Lines coloured beyond those in view, above and below (a fast scroll shows colour at once).
const COLOR_MARGIN = 20;

// A JSON token: a string (a key when a colon follows), a number, a literal, punctuation. JSON
// strings hold no raw line break, so each line is read on its own.
const TOKEN = /("(?:[^"\\]|\\.)*"?)(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],:])/g;

/** The tokens of one line as `[class, text]` pairs (`null` class: plain text). */
export function tokens(line) {
  const out = [];
  let last = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(line); m; m = TOKEN.exec(line)) {
    if (m.index > last) out.push([null, line.slice(last, m.index)]);
    if (m[1] !== undefined) {
      out.push([m[2] ? 'j-key' : 'j-str', m[1]]);
      if (m[2]) out.push(['j-punct', m[2]]);
    } else if (m[3] !== undefined) out.push(['j-num', m[3]]);
    else if (m[4] !== undefined) out.push(['j-lit', m[4]]);
    else out.push(['j-punct', m[5]]);
    last = TOKEN.lastIndex;
  }
  if (last < line.length) out.push([null, line.slice(last)]);
  return out;
}

/**
 * The text's brackets outside strings, in order: their offsets (`at`) and each one's partner's
 * index in the list (`mate`, -1 when it has none; `[` closed by `}` has none either).
 */
export function brackets(text) {
  const at = [];
  const mate = [];
  const open = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      open.push(at.length);
      at.push(i);
      mate.push(-1);
    } else if (c === 125 || c === 93) {
      const top = open.length ? open[open.length - 1] : -1;
      const k = at.length;
      at.push(i);
      // { is 123 and } 125; [ is 91 and ] 93.
      if (top >= 0 && text.charCodeAt(at[top]) === c - 2) {
        open.pop();
        mate.push(top);
        mate[top] = k;
      } else {
        mate.push(-1);
      }
    }
  }
  return { at, mate };
}

/** The index in the sorted list `at` of the offset, or -1. */
function find(at, offset) {
  let lo = 0;
  let hi = at.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at[mid] === offset) return mid;
    if (at[mid] < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * What the caret at `caret` shows: the bracket just before it (or else just after it) and its
 * partner, as `[offsets, matched]`; `null` when no bracket is beside the caret.
 */
export function caretPair({ at, mate }, caret) {
  let k = find(at, caret - 1);
  if (k < 0) k = find(at, caret);
  if (k < 0) return null;
  return mate[k] < 0 ? [[at[k]], false] : [[at[k], at[mate[k]]].sort((a, b) => a - b), true];
}

/** Line starts of the text (offsets), for the marks' lines and the gutter's count. */
function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The line holding `offset` (the last start at or before it). */
function lineOf(starts, offset) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Adds the gutter and the overlay beside and behind `textarea`; returns `refresh()`. */
export function mount(textarea) {
  const gutter = document.createElement('div');
  gutter.className = 'json-gutter';
  gutter.setAttribute('aria-hidden', 'true');
  gutter.dataset.testid = 'json-gutter';
  const numbers = document.createElement('pre');
  gutter.append(numbers);
  const overlay = document.createElement('div');
  overlay.className = 'json-overlay';
  overlay.setAttribute('aria-hidden', 'true');
  const colors = document.createElement('div');
  colors.className = 'json-colors';
  colors.dataset.testid = 'json-colors';
  const marks = document.createElement('div');
  // The marks' backgrounds behind the coloured text.
  overlay.append(marks, colors);
  // The app draws the textarea in a field inside the editor's box: the gutter goes before the
  // field, the overlay into it, behind the textarea.
  const field = textarea.parentElement;
  field.before(gutter);
  textarea.before(overlay);
  field.parentElement.classList.add('numbered');

  let text = null;
  let version = 0;
  let starts = [0];
  let found = { at: [], mate: [] };
  let unmatched = [];
  let shown = '';
  let queued = false;
  // Read once: reading styles or scroll offsets in a frame's work would force a layout there.
  const height = parseFloat(getComputedStyle(textarea).lineHeight) || 18;

  let painted = '';
  const scrolled = () => {
    numbers.style.transform = `translateY(${-textarea.scrollTop}px)`;
    const shift = `translate(${-textarea.scrollLeft}px, ${-textarea.scrollTop}px)`;
    marks.style.transform = shift;
    colors.style.transform = shift;
    refresh();
  };

  /** Colours the lines in view (and a margin): the textarea's own text is then transparent. */
  const paint = () => {
    const box = field.parentElement;
    if (text.length > COLOR_LIMIT) {
      box.classList.remove('colored');
      colors.replaceChildren();
      painted = '';
      return;
    }
    const first = Math.max(0, Math.floor(textarea.scrollTop / height) - COLOR_MARGIN);
    const last = Math.min(starts.length, first + Math.ceil(textarea.clientHeight / height) + 2 * COLOR_MARGIN);
    const key = `${version}:${first}:${last}`;
    if (key === painted) return;
    painted = key;
    const rows = [];
    for (let line = first; line < last; line++) {
      const end = line + 1 < starts.length ? starts[line + 1] - 1 : text.length;
      const row = document.createElement('div');
      row.style.top = `${line * height}px`;
      for (const [kind, part] of tokens(text.slice(starts[line], end))) {
        if (kind) {
          const span = document.createElement('span');
          span.className = kind;
          span.textContent = part;
          row.append(span);
        } else row.append(part);
      }
      rows.push(row);
    }
    colors.replaceChildren(...rows);
    box.classList.add('colored');
  };

  /** The place the JSON breaks (`line:column`, from 1), marked on its line. */
  const errorRow = (at) => {
    const [line, column] = at.split(':').map(Number);
    if (!(line >= 1 && line <= starts.length && column >= 1)) return null;
    const start = starts[line - 1];
    const end = line < starts.length ? starts[line] - 1 : text.length;
    const offset = Math.min(start + column - 1, end);
    const row = document.createElement('div');
    row.style.top = `${(line - 1) * height}px`;
    const mark = document.createElement('span');
    mark.className = 'json-error';
    mark.dataset.testid = 'json-error-mark';
    mark.dataset.line = line;
    mark.dataset.column = column;
    mark.textContent = offset < end ? text[offset] : ' ';
    row.append(text.slice(start, offset), mark);
    return row;
  };

  /** A mark line: the line's text up to the bracket (unseen), then the bracket marked. */
  const markLine = (offset, kind) => {
    const line = lineOf(starts, offset);
    const row = document.createElement('div');
    row.style.top = `${line * height}px`;
    const mark = document.createElement('mark');
    mark.className = kind;
    mark.dataset.offset = offset;
    mark.textContent = text[offset];
    row.append(text.slice(starts[line], offset), mark);
    return row;
  };

  const draw = () => {
    queued = false;
    const now = textarea.value;
    if (now !== text) {
      text = now;
      const before = starts.length;
      starts = lineStarts(text);
      if (starts.length !== before || !numbers.textContent) {
        numbers.textContent = Array.from(starts, (_, i) => i + 1).join('\n');
      }
      found = text.length <= MATCH_LIMIT ? brackets(text) : { at: [], mate: [] };
      unmatched = [];
      for (let k = 0; k < found.at.length && unmatched.length < UNMATCHED_SHOWN; k++) {
        if (found.mate[k] < 0) unmatched.push(found.at[k]);
      }
      version++;
    }
    paint();
    const caret = textarea.selectionStart === textarea.selectionEnd && document.activeElement === textarea ? textarea.selectionStart : -1;
    const pair = caret >= 0 ? caretPair(found, caret) : null;
    const errorAt = textarea.dataset.errorAt ?? '';
    const key = `${version}:${pair}:${errorAt}`;
    if (key === shown) return;
    shown = key;
    const rows = unmatched.filter((o) => !pair?.[0].includes(o)).map((o) => markLine(o, 'unmatched'));
    if (pair) rows.push(...pair[0].map((o) => markLine(o, pair[1] ? 'match' : 'unmatched')));
    const broken = errorAt && errorRow(errorAt);
    if (broken) rows.push(broken);
    marks.replaceChildren(...rows);
  };

  // After the next paint: the keystroke's own frame (the text, the panes) is not held up, and the
  // caret's offset, which needs a layout, is read once the frame has made one.
  const refresh = () => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(() => setTimeout(draw));
    }
  };
  textarea.addEventListener('scroll', scrolled, { passive: true });
  textarea.addEventListener('input', refresh);
  textarea.addEventListener('blur', refresh);
  // The app sets where the JSON breaks after its analysis.
  new MutationObserver(refresh).observe(textarea, { attributes: true, attributeFilter: ['data-error-at'] });
  document.addEventListener('selectionchange', () => {
    if (document.activeElement === textarea) refresh();
  });
  refresh();
  scrolled();
  return refresh;
}
