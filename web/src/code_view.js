// "Copy as code", fetched the first time one is opened (modules.js), so it is not part of the
// first download: a request as curl, Python (requests) or JavaScript (fetch), each copied with
// one click and all three shown. The app says what the request is (`make()`, JSON text:
// `{"ok": {url, headers, credential, body, stream}}` or `{"error": why}`, model::export);
// credentials are never written, the code reads them from environment variables.

/** A string as a double-quoted literal: JSON's escapes, which Python and JavaScript read alike. */
const quoted = (s) => JSON.stringify(s);
const shell = (s) => `'${s.replaceAll("'", "'\\''")}'`;

export function curl(call) {
  let command = `curl ${call.stream ? '-sSN' : '-sS'} -X POST ${shell(call.url)} \\\n  -H 'Content-Type: application/json'`;
  for (const [name, value] of call.headers) command += ` \\\n  -H ${shell(`${name}: ${value}`)}`;
  const c = call.credential;
  if (c.kind === 'header') command += ` \\\n  -H "${c.name}: ${c.prefix}$${c.env}"`;
  if (c.kind === 'basic') command += ` \\\n  -u ${shell(`${c.user}:`)}"$${c.env}"`;
  return `${command} \\\n  --data-binary @- <<'JSON'\n${call.body}\nJSON\n`;
}

export function python(call) {
  const headers = [[quoted('Content-Type'), quoted('application/json')], ...call.headers.map(([n, v]) => [quoted(n), quoted(v)])];
  const c = call.credential;
  let auth = '';
  if (c.kind === 'header') headers.push([quoted(c.name), `${quoted(c.prefix)} + os.environ[${quoted(c.env)}]`]);
  if (c.kind === 'basic') auth = `    auth=(${quoted(c.user)}, os.environ[${quoted(c.env)}]),\n`;
  // A raw string keeps the JSON as it is, unless it holds what would end one.
  const body = call.body.includes("'''") || call.body.endsWith('\\') ? quoted(call.body) : `r'''${call.body}'''`;
  const stream = call.stream ? '    stream=True,\n' : '';
  const read = call.stream
    ? 'for line in response.iter_lines(decode_unicode=True):\n    if line:\n        print(line)\n'
    : 'print(response.text)\n';
  return `import os\n\nimport requests\n\nbody = ${body}\n\nresponse = requests.post(\n    ${quoted(call.url)},\n    headers={${headers.map(([n, v]) => `${n}: ${v}`).join(', ')}},\n    data=body.encode("utf-8"),\n${auth}${stream}    timeout=300,\n)\nresponse.raise_for_status()\n${read}`;
}

export function javascript(call) {
  const headers = [[quoted('Content-Type'), quoted('application/json')], ...call.headers.map(([n, v]) => [quoted(n), quoted(v)])];
  const c = call.credential;
  if (c.kind === 'header') headers.push([quoted(c.name), `${quoted(c.prefix)} + process.env.${c.env}`]);
  if (c.kind === 'basic') headers.push([quoted('Authorization'), `"Basic " + btoa(${quoted(`${c.user}:`)} + process.env.${c.env})`]);
  // JSON is a JavaScript expression; text that is not JSON goes as a string.
  let body;
  try {
    JSON.parse(call.body);
    body = `JSON.stringify(${call.body})`;
  } catch {
    body = quoted(call.body);
  }
  const read = call.stream
    ? 'const decoder = new TextDecoder();\nfor await (const chunk of response.body) process.stdout.write(decoder.decode(chunk, { stream: true }));\n'
    : 'console.log(await response.text());\n';
  return `// Node 18 or later (an ES module, for the top-level await).\nconst response = await fetch(${quoted(call.url)}, {\n  method: "POST",\n  headers: { ${headers.map(([n, v]) => `${n}: ${v}`).join(', ')} },\n  body: ${body},\n});\nif (!response.ok) throw new Error(\`\${response.status}: \${await response.text()}\`);\n${read}`;
}

export const LANGUAGES = [['curl', 'curl', curl], ['python', 'Python', python], ['javascript', 'JavaScript', javascript]];

// Most of a sample shown on the page (a body with files can be megabytes; Copy takes it whole).
const SHOWN = 64 * 1024;

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
};

/** Draws the copy buttons and the code into `host`; `what` names the request in the status line. */
export function mount(host, testid, what, make) {
  const status = el('span', { class: 'hint', role: 'status', 'data-testid': `${testid}-status` });
  const shown = el('div');
  const read = () => {
    const made = JSON.parse(make());
    if (made.error) status.textContent = `Nothing to copy: ${made.error}.`;
    return made.ok ?? null;
  };
  const buttons = LANGUAGES.map(([id, label, render]) => {
    const button = el('button', { type: 'button', class: 'small', 'data-testid': `${testid}-${id}` }, label);
    button.addEventListener('click', () => {
      const call = read();
      if (!call) return;
      navigator.clipboard.writeText(render(call)).then(
        () => (status.textContent = `Copied ${what} as ${label} (credentials as environment variables).`),
        () => (status.textContent = 'The browser refused access to the clipboard.'),
      );
    });
    return button;
  });
  const show = el('button', { type: 'button', class: 'small', 'data-testid': `${testid}-show` }, 'Show the code');
  show.addEventListener('click', () => {
    const call = read();
    if (!call) return;
    shown.replaceChildren(...LANGUAGES.flatMap(([id, label, render]) => {
      const code = render(call);
      const text = code.length > SHOWN ? `${code.slice(0, SHOWN)}\n… (cut here on the page; Copy takes it whole)` : code;
      return [el('h4', {}, label), el('pre', { class: 'code-output', tabindex: '0', 'data-testid': `${testid}-code-${id}`, 'aria-label': `${what} as ${label}` }, text)];
    }));
  });
  host.replaceChildren(el('div', { class: 'code-export' }, el('span', { class: 'hint' }, 'Copy:'), ...buttons, show, status), shown);
}
