// A consumer page of the npm package: `import` from 'agent-input' exactly as an application
// does, whatever loads it (Vite, webpack, or the browser itself through an import map). On load
// it validates and converts an example and records the results in window.agentInputResults for
// the test; the buttons validate and convert what is in the text area.
import { convert, convertJson, detectInputType, extractQuestion, validate, validateJson, version } from 'agent-input';

const $ = (id) => document.getElementById(id);
const example = {
  input: [
    { type: 'text', text: 'Compare these two pictures.' },
    { type: 'image', source: { type: 'base64', format: 'bmp', data: 'Qk0=' } },
    { type: 'image', source: { type: 'base64', format: 'JPG', data: '/9j/4A==' } },
    { type: 'image', sorce: { type: 'url', format: 'png', data: 's3://bucket/cat.png' } },
  ],
};

function show(report) {
  $('verdict').textContent = report.valid ? 'valid' : 'invalid';
  $('verdict').className = `badge ${report.valid ? 'ok' : 'bad'}`;
  $('input-type').textContent = report.inputType ?? '';
  const rows = [
    ...report.errors.map((d) => ['error', d]),
    ...report.warnings.map((d) => ['warning', d]),
  ];
  $('diagnostics').replaceChildren(
    ...rows.map(([kind, d]) => {
      const tr = document.createElement('tr');
      tr.className = kind;
      for (const [cls, text] of [['code', d.code], ['path', d.path || '""'], ['message', d.message]]) {
        const td = document.createElement('td');
        td.className = cls;
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    }),
  );
}

function showConversion(result) {
  $('converted').textContent = result.ok ? 'ok' : `${result.errors.length} error(s)`;
  $('converted').className = `badge ${result.ok ? 'ok' : 'bad'}`;
  $('body').textContent = result.ok
    ? JSON.stringify(result.body, null, 2)
    : result.errors.map((e) => `${e.code} at ${e.path}: ${e.message}`).join('\n');
}

function readRequest() {
  try {
    return { text: $('request').value, value: JSON.parse($('request').value) };
  } catch {
    return { text: $('request').value };
  }
}

$('validate').addEventListener('click', () => show(validateJson(readRequest().text)));
$('convert').addEventListener('click', () => {
  const { text } = readRequest();
  show(validateJson(text));
  const result = convertJson(text, { provider: 'bedrock-converse', maxTokens: 512 });
  showConversion(result.ok ? { ...result, body: JSON.parse(result.body) } : result);
});

// On load: the example, then a valid request converted through values and through text.
$('version').textContent = version;
$('via').textContent = new URLSearchParams(location.search).get('via') ?? 'unknown';
$('request').value = JSON.stringify(example, null, 2);
const report = validate(example);
show(report);

const png = new Uint8Array(1_000_000);
png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
let binary = '';
for (let i = 0; i < png.length; i += 0x8000) binary += String.fromCharCode(...png.subarray(i, i + 0x8000));
const fixed = {
  input: [
    { type: 'text', text: 'What is in this picture?' },
    { type: 'image', source: { type: 'base64', format: 'png', data: btoa(binary) } },
  ],
};
const options = { provider: 'bedrock-converse', system: 'Be brief.', maxTokens: 256, temperature: '0.2' };
const converted = convert(fixed, options);
const convertedJson = convertJson(JSON.stringify(fixed), options);
const small = convert({ input: 'What is OpenSearch?' }, options);
showConversion(small);

window.agentInputResults = {
  version,
  report,
  converted: {
    ok: converted.ok,
    bytes: converted.ok ? converted.body.messages[0].content[1].image.source.bytes.length : 0,
    sameAsJson: convertedJson.ok && JSON.stringify(JSON.parse(convertedJson.body)) === JSON.stringify(converted.body),
    bodyIsText: typeof convertedJson.body === 'string',
  },
  small,
  question: extractQuestion(fixed.input),
  inputType: detectInputType(example.input),
  refused: convert({ input: [{ type: 'image', source: { type: 'url', format: 'png', data: 'https://example.com/a.png' } }] }, options),
};

// Agent input schemas: their own entry and WebAssembly module, loaded on demand.
const { formatInputs } = await import('agent-input/schema');
const schema = { required: ['topic'], properties: { topic: { type: 'string' } } };
window.agentInputResults.schema = {
  formatted: formatInputs({ input: 'Write.', parameters: { topic: 'AI' } }, schema),
  violation: formatInputs({ input: 'Write.', parameters: { topic: 5 } }, schema).errors.map((e) => [e.code, e.path, e.schemaPath]),
};
document.body.dataset.ready = 'true';
