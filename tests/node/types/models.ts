// A TypeScript consumer of `agent-input/models` (models.test.mjs compiles it with tsc, as a Node
// project without the DOM library and as a browser project): the base entry's functions with
// `model` among their options, `importRequest`, and the table's reader.
import {
  convert,
  convertJson,
  importRequest,
  modelFamily,
  modelSource,
  validate,
  type ConvertOptions,
  type ModelFamily,
  type ModelSupport,
  type ValidateRequestOptions,
} from 'agent-input/models';

const options: ConvertOptions = { provider: 'openai-chat', model: 'o3-mini', temperature: 0.2 };
const converted = convert({ input: 'Hi' }, options);
if (!converted.ok) {
  const codes: string[] = converted.errors.map((e) => e.code);
  void codes;
}
const text = convertJson('{"input": "Hi"}', { provider: 'gemini', model: 'gemini-2.5-pro' });
if (text.ok) {
  const body: string = text.body;
  void body;
}

const validateOptions: ValidateRequestOptions = { model: 'claude-opus-4-7', limits: { maxBlocks: 10 } };
const report = validate({ input: 'Hi' }, validateOptions);
const valid: boolean = report.valid;
// @ts-expect-error: a model id is a string
validate({ input: 'Hi' }, { model: 5 });

const family: ModelFamily | null = modelFamily('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
if (family !== null) {
  const images: ModelSupport = family.imageInput;
  const most: number | null = family.maxOutputTokens;
  void [images, most];
}
const source: string = modelSource;

const imported = importRequest('openai-chat', '{"model": "gpt-5", "top_p": 0.5, "messages": []}', { to: 'openai-chat' });
if (!imported.ok) {
  const nothing: null = imported.body;
  void nothing;
}
void [valid, source];
