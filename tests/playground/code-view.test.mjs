// "Copy as code"'s writers (web/src/code_view.js), run in Node: each request as curl, Python and
// JavaScript names its credential's environment variable and never holds a secret; the Python
// and JavaScript are checked by their own parsers where the machine has them (python3; node).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

import { curl, javascript, python } from '../../web/src/code_view.js';

const call = (credential, stream = false, body = '{\n  "input": "it\'s"\n}') => ({
  url: 'http://127.0.0.1:9200/_plugins/_ml/agents/echo/_execute' + (stream ? '/stream' : ''),
  headers: [['anthropic-version', '2023-06-01']],
  credential,
  body,
  stream,
});

const CREDENTIALS = [
  [{ kind: 'header', name: 'Authorization', prefix: 'Bearer ', env: 'AGENT_TOKEN' },
    ['-H "Authorization: Bearer $AGENT_TOKEN"', '"Authorization": "Bearer " + os.environ["AGENT_TOKEN"]', '"Authorization": "Bearer " + process.env.AGENT_TOKEN']],
  [{ kind: 'basic', user: 'admin', env: 'AGENT_PASSWORD' },
    ["-u 'admin:'\"$AGENT_PASSWORD\"", 'auth=("admin", os.environ["AGENT_PASSWORD"])', 'btoa("admin:" + process.env.AGENT_PASSWORD)']],
  [{ kind: 'header', name: 'x-api-key', prefix: '', env: 'ANTHROPIC_API_KEY' },
    ['-H "x-api-key: $ANTHROPIC_API_KEY"', '"x-api-key": "" + os.environ["ANTHROPIC_API_KEY"]', '"x-api-key": "" + process.env.ANTHROPIC_API_KEY']],
];

test('each language names the credential, sends the headers and the body, and reads a stream as it comes', () => {
  for (const [credential, expected] of CREDENTIALS) {
    for (const stream of [false, true]) {
      const made = [curl, python, javascript].map((write) => write(call(credential, stream)));
      made.forEach((code, i) => assert.ok(code.includes(expected[i]), `${expected[i]} not in\n${code}`));
      for (const code of made) {
        assert.ok(code.includes(call(credential, stream).url), code);
        assert.ok(code.includes('anthropic-version'), code);
      }
      assert.ok(made[0].startsWith(stream ? 'curl -sSN -X POST' : 'curl -sS -X POST'));
      assert.ok(made[0].endsWith(`<<'JSON'\n${call(credential).body}\nJSON\n`), made[0]);
      assert.equal(made[1].includes('stream=True'), stream);
      assert.equal(made[2].includes('for await (const chunk of response.body)'), stream);
    }
  }
  assert.ok(!curl(call({ kind: 'none' })).includes('Authorization'));
});

test('the JavaScript parses and sends the body as JSON; the Python parses where python3 is', () => {
  const js = javascript(call(CREDENTIALS[0][0]));
  // Parsed as a module (top-level await), not run.
  const checked = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: js, encoding: 'utf8' });
  assert.equal(checked.status, 0, checked.stderr);
  assert.ok(js.includes('body: JSON.stringify({\n  "input": "it\'s"\n})'), js);
  // Python: the body in a raw string, or a quoted one when the JSON could end the raw string.
  for (const body of ['{"a": "it\'s"}', '{"a": "x\'\'\'y"}', '{"a": "back\\\\"}']) {
    const py = python(call(CREDENTIALS[1][0], false, body));
    const compiled = spawnSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: py, encoding: 'utf8' });
    if (compiled.error) continue; // no python3 on this machine
    assert.equal(compiled.status, 0, `${compiled.stderr}\n${py}`);
    const value = spawnSync('python3', ['-c', `import ast, sys\nsrc = sys.stdin.read()\nfor node in ast.parse(src).body:\n    if getattr(node, 'targets', None) and node.targets[0].id == 'body':\n        print(ast.literal_eval(node.value), end='')`], { input: py, encoding: 'utf8' });
    assert.equal(value.stdout, body);
  }
});
