// "Deploy to OpenSearch": the view's contents, loaded with agent-input/register's module the first
// time the view is opened (modules.js), so neither is part of the first download. The
// registration body is built from what the conversion settings give (`update`, from the app:
// provider, credentials, model parameters), editable; the module plans its registration for the
// chosen ml-commons version; the plan is shown call by call, as Dev Tools console text and as
// the curl script the app writes with the core's `register::curl_script`. The agent type is
// chosen among those the version registers (`facts.agent_types`, from the core): by default the
// one that takes the input being built, with the reason shown, until the user picks one.

// The ml-commons versions offered, oldest first (the plan refuses versions before 3.0).
const VERSIONS = ['3.0', '3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '3.7', '3.8', '3.9'];
const API_NAMES = { unified: 'the unified API', legacy: 'the legacy calls (connector, model, agent)' };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

const pretty = (value) => JSON.stringify(value, null, 2);

/**
 * The unified registration body: the view's fields (`name`, `type`, `model`, `region`) over what
 * the settings give (`facts`: `model` without its id, `example_model`, `region` when the provider
 * takes one), or `{ error }` when ml-commons' model block has no provider for the settings'.
 */
export function registration(facts, fields) {
  if (facts.unavailable) return { error: facts.unavailable };
  const parameters = {};
  if (facts.region && fields.region.trim()) parameters.region = fields.region.trim();
  Object.assign(parameters, facts.model_parameters);
  const model = { model_id: fields.model.trim() || facts.example_model, ...facts.model };
  if (Object.keys(parameters).length) model.model_parameters = parameters;
  const body = { name: fields.name, type: fields.type, model };
  if (fields.type === 'conversational') body.memory = { type: 'conversation_index' };
  // A conversational_v2 agent keeps its conversation in agentic memory, in a container made first.
  if (fields.type === 'conversational_v2') body.memory = { type: 'agentic_memory', memory_container_id: '{{memory_container_id}}' };
  return { body };
}

/**
 * The agent type for the version: the user's choice while the version registers it, else the
 * one picked for the input (`facts.agent_types[version]`); with the reason when it is the pick.
 */
export function agentType(facts, version, chosen) {
  const types = facts.agent_types?.[version];
  if (!types) return { type: chosen ?? 'conversational', offered: [chosen ?? 'conversational'], why: '' };
  if (chosen && types.offered.includes(chosen)) return { type: chosen, offered: types.offered, why: '' };
  return { type: types.pick, offered: types.offered, why: types.why };
}

/**
 * The plan as text for OpenSearch Dashboards' Dev Tools console: each call as `METHOD path` and
 * its body, with comments saying which id to paste where.
 */
export function consoleText(plan, version) {
  let out = `# Registers the agent on ml-commons ${version}: ${plan.steps.length} call(s), ${plan.api} API.\n`;
  plan.steps.forEach((step, i) => {
    const body = pretty(step.body);
    out += '\n';
    for (const id of ['connector_id', 'model_id']) {
      if (body.includes(`"{{${id}}}"`)) out += `# Replace "{{${id}}}" with the ${id} returned above.\n`;
    }
    out += `# ${i + 1}.\n${step.method} ${step.path}\n${body}\n`;
  });
  return out;
}

function problemItem([severity, d]) {
  return el('li', { 'data-testid': `deploy-${severity}`, 'data-code': d.code, 'data-path': d.path, 'data-severity': severity, class: severity },
    el('span', { class: 'badge' }, severity), ' ',
    el('code', { class: 'code-name' }, d.code), ' ',
    el('code', { class: 'path' }, d.path || '/'), ' ',
    el('span', { class: 'message' }, d.message));
}

/**
 * Draws the view into `host` and returns its `update(facts)`. `planRegistration` is the module's;
 * `curl(report, version)` writes a plan's curl script (the app, with the core's writer).
 */
export function mount(host, planRegistration, curl, facts) {
  const fields = { name: 'Playground agent', type: 'conversational', model: '', region: '', version: VERSIONS.at(-1), api: '' };
  // The type the user picked (none: the one that takes the input).
  let chosenType = null;
  let edited = null;
  // What the settings gave when the body was last built or edited: a change after an edit makes
  // the body out of date until it is rebuilt.
  let builtFrom = JSON.stringify(facts);
  let plan = null;
  const input = (id, label, key) => {
    const field = el('input', { type: 'text', id, 'data-testid': id });
    field.addEventListener('input', () => {
      fields[key] = field.value;
      refresh();
    });
    return [field, el('div', { class: 'field' }, el('label', { for: id }, label), field)];
  };
  const select = (id, label, key, options) => {
    const field = el('select', { id, 'data-testid': id });
    for (const [value, text] of options) field.append(el('option', { value }, text));
    field.value = fields[key];
    field.addEventListener('change', () => {
      fields[key] = field.value;
      refresh();
    });
    return el('div', { class: 'field' }, el('label', { for: id }, label), field);
  };
  const typeSelect = el('select', { id: 'deploy-type', 'data-testid': 'deploy-type' });
  typeSelect.addEventListener('change', () => {
    chosenType = typeSelect.value;
    refresh();
  });
  const typeWhy = el('p', { class: 'hint', role: 'status', 'data-testid': 'deploy-type-why' });
  const [name, nameField] = input('deploy-name', 'Agent name', 'name');
  const [model, modelField] = input('deploy-model', 'Model id', 'model');
  const [region, regionField] = input('deploy-region', 'Region (AWS)', 'region');
  // A field left empty shows the default the body uses, not a grey hint.
  name.value = fields.name;
  region.value = 'us-east-1';
  const text = el('textarea', { id: 'deploy-body', class: 'code', 'data-testid': 'deploy-body', rows: '8', spellcheck: 'false' });
  const rebuild = el('button', { type: 'button', 'data-testid': 'deploy-rebuild' }, 'Rebuild from the settings');
  const stale = el('p', { class: 'notice', role: 'status', 'data-testid': 'deploy-stale' });
  const result = el('div');
  const status = el('span', { class: 'hint', role: 'status' });
  const copy = (label, write, done) => {
    const button = el('button', { type: 'button', 'data-testid': label }, label === 'deploy-copy-curl' ? 'Copy as curl' : 'Copy for Dev Tools');
    button.addEventListener('click', () => {
      if (!plan) {
        status.textContent = 'Nothing to copy: the plan has errors.';
        return;
      }
      navigator.clipboard.writeText(write(plan)).then(
        () => (status.textContent = done),
        () => (status.textContent = 'The browser refused access to the clipboard.'),
      );
    });
    return button;
  };
  text.addEventListener('input', () => {
    edited = text.value;
    refresh();
  });
  rebuild.addEventListener('click', () => {
    edited = null;
    refresh();
  });

  function refresh() {
    if (!fields.model && document.activeElement !== model) model.value = facts.example_model;
    const typed = agentType(facts, fields.version, chosenType);
    fields.type = typed.type;
    if ([...typeSelect.options].map((o) => o.value).join() !== typed.offered.join()) {
      typeSelect.replaceChildren(...typed.offered.map((t) => el('option', { value: t }, t)));
    }
    typeSelect.value = typed.type;
    typeWhy.hidden = !typed.why;
    typeWhy.textContent = typed.why ? `Picked ${typed.why}.` : '';
    const built = registration(facts, fields);
    // Rebuild is offered once the body is edited, and stands out when the settings moved on.
    const outOfDate = edited !== null && builtFrom !== JSON.stringify(facts);
    if (edited === null) builtFrom = JSON.stringify(facts);
    rebuild.hidden = edited === null;
    rebuild.className = outOfDate ? 'primary' : '';
    stale.hidden = !outOfDate;
    stale.textContent = outOfDate
      ? 'Out of date: the conversion settings changed since this body was edited. Rebuild to start again from them (your edits go).'
      : '';
    if (edited === null) text.value = built.body ? pretty(built.body) : '';
    plan = null;
    if (edited === null && built.error) {
      result.replaceChildren(el('p', { class: 'hint', 'data-testid': 'deploy-unavailable' }, built.error));
      return;
    }
    const version = fields.version;
    let report;
    try {
      report = planRegistration(text.value, fields.api ? { version, api: fields.api } : { version });
    } catch (e) {
      report = { ok: false, errors: [{ code: 'internal', path: '', message: `the registration planner failed: ${e?.message ?? e}` }], warnings: [] };
    }
    const warnings = report.warnings.map((d) => ['warning', d]);
    if (!report.ok) {
      result.replaceChildren(
        el('p', { class: 'hint', 'data-testid': 'deploy-status' }, 'The registration body has problems:'),
        el('ul', { class: 'diagnostics' }, ...report.errors.map((d) => ['error', d]).concat(warnings).map(problemItem)),
      );
      return;
    }
    const n = report.steps.length;
    const console = consoleText(report, version);
    const script = curl(JSON.stringify(report), version);
    plan = { console, script };
    const steps = report.steps.map((step) =>
      el('li', { 'data-testid': 'deploy-step', 'data-method': step.method, 'data-path': step.path },
        el('code', { class: 'step-call' }, `${step.method} ${step.path}`),
        ...(step.returns ? [el('span', { class: 'hint' }, ' → returns ', el('code', {}, step.returns))] : []),
        el('pre', { class: 'code-output', 'data-testid': 'deploy-step-body' }, pretty(step.body))));
    result.replaceChildren(
      el('p', { class: 'hint', 'data-testid': 'deploy-status', 'data-api': report.api },
        `ml-commons ${version}: ${n} ${n === 1 ? 'call' : 'calls'}, ${API_NAMES[report.api]}.`),
      el('ul', { class: 'diagnostics' }, ...warnings.map(problemItem)),
      el('ol', { class: 'deploy-steps' }, ...steps),
      el('details', {}, el('summary', {}, 'Dev Tools console text'), el('pre', { class: 'code-output', 'data-testid': 'deploy-console' }, console)),
      el('details', {}, el('summary', {}, 'curl script'), el('pre', { class: 'code-output', 'data-testid': 'deploy-curl' }, script)),
    );
  }

  const credentials = el('code', {}, '{{…}}');
  host.replaceChildren(
    el('p', { class: 'hint' }, 'The calls that register an agent with these conversion settings (provider, system prompt, max tokens, temperature, top p) on an OpenSearch cluster. Credentials are written as ', credentials, ' placeholders: replace them before sending. Tools, stop sequences, tool choice, caching and structured output are not part of the registration.'),
    el('div', { class: 'row' }, nameField, modelField, regionField),
    el('div', { class: 'row' },
      el('div', { class: 'field' }, el('label', { for: 'deploy-type' }, 'Agent type'), typeSelect),
      select('deploy-version', 'ml-commons version', 'version', VERSIONS.map((v) => [v, v])),
      select('deploy-api', 'API', 'api', [['', "the version's default"], ['legacy', 'legacy (connector, model, agent)'], ['unified', 'unified']])),
    typeWhy,
    el('div', { class: 'field' }, el('label', { for: 'deploy-body' }, 'Registration body (built from the settings; edit it freely)'), text, stale, rebuild),
    result,
    el('div', { class: 'actions' },
      copy('deploy-copy-console', (p) => p.console, 'Copied the Dev Tools console text.'),
      copy('deploy-copy-curl', (p) => p.script, 'Copied the curl script.'),
      status),
  );
  refresh();
  return (next) => {
    facts = next;
    refresh();
  };
}
