// A TypeScript consumer of the package: it must type-check under `strict` with the package's own
// declarations (types.test.mjs compiles it with tsc), and each `@ts-expect-error` proves a type is
// precise rather than `any`.
import {
  convert,
  convertInput,
  convertJson,
  detectInputType,
  extractQuestion,
  validate,
  validateInput,
  validateJson,
  version,
  type AgentInput,
  type ContentBlock,
  type ConverseRequest,
  type ConvertOptions,
  type Diagnostic,
  type ErrorCode,
  type ExecuteRequest,
  type InputType,
  type Message,
  type ProviderRequest,
  type ResponseResult,
  type Usage,
  type ToolCall,
  type ValidationReport,
  type WarningCode,
} from 'agent-input';
// Since 0.2.0 its own entry, with its own module.
import { parseResponse } from 'agent-input/response';
import { importRequest, type ImportResult } from 'agent-input/import';

const blocks: ContentBlock[] = [
  { type: 'text', text: 'Describe' },
  { type: 'image', source: { type: 'base64', format: 'jpg', data: '/9j/4A==' } },
  { type: 'video', source: { type: 'url', format: 'mp4', data: 's3://bucket/clip.mp4' } },
  { type: 'document', name: 'Q3 report', source: { type: 'base64', format: 'pdf', data: 'JVBERi0=' } },
];
const call: ToolCall = { id: 'call-1', type: 'function', function: { name: 'get_weather', arguments: '{}' } };
const messages: Message[] = [
  { role: 'user', content: blocks },
  { role: 'assistant', content: [], toolCalls: [call] },
  { role: 'tool', toolCallId: 'call-1', content: [{ type: 'text', text: '72F' }] },
  { role: 'reviewer', content: [{ type: 'text', text: 'any role is valid input' }] },
];
const inputs: AgentInput[] = ['What is OpenSearch?', blocks, messages];
const request: ExecuteRequest = { input: inputs[2], parameters: { question: 'legacy', verbose: true }, agent_id: 'a' };

const report: ValidationReport = validate(request, { allowPrefill: true, limits: { maxMessages: 10 } });
const kind: InputType | null = report.inputType;
const codes: ErrorCode[] = report.errors.map((e) => e.code);
const warned: WarningCode[] = report.warnings.map((w) => w.code);
const first: Diagnostic | undefined = report.errors[0];
const where: string | undefined = first?.path;
const limit: number | undefined = first?.limit;
validateInput(blocks);
validateJson(JSON.stringify(request));
validate(JSON.parse('{}') as unknown); // untrusted data needs no cast

const options: ConvertOptions = {
  provider: 'bedrock-converse',
  system: 'Be brief.',
  maxTokens: 512,
  temperature: '0.2',
  topP: 0.9,
  stopSequences: ['END'],
  tools: [{ name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: {} } }],
};
const result = convert(request, options);
if (result.ok) {
  const body: ProviderRequest = result.body;
  // The body's type narrows by its own fields.
  if ('inferenceConfig' in body) {
    const converse: ConverseRequest = body;
    const maxTokens: number = converse.inferenceConfig.maxTokens;
    void maxTokens;
  }
  const none: [] = result.errors;
  void none;
} else {
  const body: undefined = result.body;
  void body;
}
for (const provider of ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini', 'gemini/v1beta/generatecontent'] as const) {
  convert(request, { provider });
}
const read: ResponseResult = parseResponse('openai-chat', '{"choices": []}');
if (read.ok) {
  const reply: Message = read.message;
  const stop: string | null = read.stopReason;
  const usage: Usage | null = read.usage;
  void [reply, stop, usage];
}
parseResponse('gemini', { candidates: [] });
const imported: ImportResult = importRequest('openai-chat', { messages: [] }, { to: 'anthropic-messages' });
if (imported.ok && imported.request) {
  const input: AgentInput | undefined = imported.request.input;
  const firstWarning: WarningCode | undefined = imported.warnings[0]?.code;
  void [input, firstWarning, imported.body, imported.options];
}
importRequest('gemini', '{"contents": []}');
const json = convertJson('{"input": "Hi"}', { provider: 'bedrock/converse' });
if (json.ok) {
  const text: string = json.body;
  void text;
}
convertInput('Hi', options);
const question: string | null = extractQuestion(blocks);
const detected: InputType | null = detectInputType(42);
const v: string = version;

// @ts-expect-error: options are required for conversion
convert(request);
// @ts-expect-error: the provider is required
convert(request, { maxTokens: 5 });
// @ts-expect-error: not a provider
convert(request, { provider: 'openai' });
// @ts-expect-error: not a provider
parseResponse('bedrock', '{}');
// @ts-expect-error: not a provider
importRequest('gemini', {}, { to: 'openai' });
// @ts-expect-error: the Json variants take text
validateJson(request);
// @ts-expect-error: not an input type
const wrongKind: InputType = 'IMAGE';
// @ts-expect-error: not a code
const wrongCode: ErrorCode = 'format_normalized';
// @ts-expect-error: not a block type
const wrongBlock: ContentBlock = { type: 'audio', text: 'x' };
// @ts-expect-error: the loader is not part of the API
import { initSync } from 'agent-input';

void [kind, codes, warned, where, limit, question, detected, v, wrongKind, wrongCode, wrongBlock, initSync];

// agent-input/schema: agent input schemas, in their own entry.
import {
  checkSchema,
  formatInputs,
  validateParameters,
  type FormatInputsResult,
  type ParametersSchema,
  type SchemaCheck,
} from 'agent-input/schema';

const parametersSchema: ParametersSchema = { type: 'object', properties: { topic: { type: 'string' } } };
const schemaReport: ValidationReport = validateParameters({ input: 'Hi', parameters: { topic: 'AI' } }, parametersSchema);
const schemaPath: string | undefined = schemaReport.errors[0]?.schemaPath;
const formatted: FormatInputsResult = formatInputs({ input: 'Hi' }, parametersSchema, { limits: { maxDepth: 10 } });
if (formatted.ok) {
  const prompt: string = formatted.prompt;
  void prompt;
}
const check: SchemaCheck = checkSchema(parametersSchema);
if (check.valid) {
  const merged: ParametersSchema = check.mergedSchema;
  void merged;
}
// @ts-expect-error a schema is required
validateParameters({ input: 'Hi' });
void schemaPath;
