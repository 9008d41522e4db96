//! "Deploy to `OpenSearch`": the registration body for the current settings (editable), and the
//! calls that register it on a cluster of the chosen ml-commons version, copyable as Dev Tools
//! console text or as a curl script, with the plan's warnings. The plan comes from
//! `agent-input/register`'s module, loaded the first time the view is opened.

use agent_input::register::{self, Api, Version};
use leptos::prelude::*;

use super::copy::copy;
use crate::browser::register_module;
use crate::browser::schema_module::Load;
use crate::model::deploy::{self, DeploySettings, Problem, VERSIONS, example_model};
use crate::model::settings::Settings;

/// Diagnostics of the plan (paths into the registration body, not the input: no click target).
fn plan_items(list: &[Problem], testid: &'static str) -> Vec<AnyView> {
    list.iter()
        .map(|d| {
            let severity = d.severity;
            let shown = if d.path.is_empty() { "/".to_string() } else { d.path.clone() };
            view! {
                <li data-testid=testid data-code=d.code.clone() data-path=d.path.clone() data-severity=severity class=severity>
                    <span class="badge">{severity}</span>
                    <code class="code-name">{d.code.clone()}</code>
                    <code class="path">{shown}</code>
                    <span class="message">{d.message.clone()}</span>
                </li>
            }
            .into_any()
        })
        .collect()
}

/// The deploy view, closed until opened; it reads the conversion settings, never the input.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn DeployPane(settings: RwSignal<Settings>) -> impl IntoView {
    let open = RwSignal::new(false);
    let deploy = RwSignal::new(DeploySettings::default());
    // The registration text: built from the settings until the user edits it.
    let edited = RwSignal::new(None::<String>);
    let built = Memo::new(move |_| {
        let s = settings.get();
        deploy.with(|d| deploy::registration(&s, d))
    });
    let text = move || match edited.get() {
        Some(text) => Ok(text),
        None => built.get().map(|v| serde_json::to_string_pretty(&v).unwrap_or_default()),
    };
    // The planner's module, loaded the first time the view is opened (again after a failure).
    let module = RwSignal::new(Load::NotLoaded);
    Effect::new(move |_| {
        if open.get() && matches!(module.get_untracked(), Load::NotLoaded | Load::Failed(_)) {
            module.set(Load::Loading);
            leptos::task::spawn_local(async move { module.set(register_module::load().await) });
        }
    });
    let plan = Memo::new(move |_| {
        if !open.get() || module.with(|m| *m != Load::Ready) {
            return None;
        }
        let (version, api) = deploy.with(deploy::plan_options);
        let planned = move |t: String| {
            let read = register_module::plan(&t, &version, api).map_err(|why| {
                vec![Problem {
                    code: "internal".into(),
                    path: String::new(),
                    message: format!("the registration planner failed: {why}"),
                    severity: "error",
                }]
            });
            read.and_then(|report| deploy::read_plan(&report))
        };
        let version = deploy.with(|d| d.version);
        Some(text().map(|t| (planned(t), version)))
    });
    let status = RwSignal::new(None::<String>);
    let copy_text = move |curl: bool| {
        let Some(Ok((Ok(plan), version))) = plan.get_untracked() else {
            status.set(Some("Nothing to copy: the plan has errors.".into()));
            return;
        };
        if curl {
            copy(register::curl_script(&plan.core(), version), status, "Copied the curl script.".into());
        } else {
            copy(deploy::console_text(&plan, version), status, "Copied the Dev Tools console text.".into());
        }
    };
    let initial = deploy.get_untracked();
    let versions: Vec<_> = VERSIONS
        .iter()
        .map(|v| view! { <option value=v.to_string() selected=*v == initial.version>{v.to_string()}</option> })
        .collect();
    let field = move |id: &'static str,
                      label: &'static str,
                      get: fn(&DeploySettings) -> String,
                      set: fn(&mut DeploySettings, String),
                      default: Signal<String>| {
        // The default the body uses when the field is empty is shown as the value, not a grey hint.
        let shown = move || Some(deploy.with(get)).filter(|v| !v.is_empty()).unwrap_or_else(|| default.get());
        view! {
            <div class="field">
                <label for=id>{label}</label>
                <input type="text" id=id data-testid=id prop:value=shown
                    on:input=move |ev| { let v = event_target_value(&ev); deploy.update(|d| set(d, v)); } />
            </div>
        }
    };
    let model_example = Signal::derive(move || settings.with(|s| example_model(s.provider).to_string()));
    let body = move || {
        let Some(result) = plan.get() else {
            return match module.get() {
                Load::Loading => view! { <p class="hint" data-testid="deploy-loading">"Loading the registration planner…"</p> }.into_any(),
                Load::Failed(why) => view! { <p class="hint error" data-testid="deploy-load-failed">{format!("The registration planner did not load: {why}. Close and open the view to try again.")}</p> }.into_any(),
                Load::NotLoaded | Load::Ready => ().into_any(),
            };
        };
        match result {
            Err(why) => view! { <p class="hint" data-testid="deploy-unavailable">{why}</p> }.into_any(),
            Ok((Err(problems), _)) => view! {
                <p class="hint" data-testid="deploy-status">"The registration body has problems:"</p>
                <ul class="diagnostics">{plan_items(&problems, "deploy-error")}</ul>
            }
            .into_any(),
            Ok((Ok(plan), version)) => {
                let api = match plan.api {
                    Api::Unified => "the unified API",
                    Api::Legacy => "the legacy calls (connector, model, agent)",
                };
                let steps: Vec<_> = plan
                    .steps
                    .iter()
                    .map(|step| {
                        view! {
                            <li data-testid="deploy-step" data-method=step.method.as_str() data-path=step.path>
                                <code class="step-call">{format!("{} {}", step.method.as_str(), step.path)}</code>
                                {step.returns.map(|r| view! { <span class="hint">" → returns "<code>{r}</code></span> })}
                                <pre class="code-output" data-testid="deploy-step-body">{serde_json::to_string_pretty(&step.body).unwrap_or_default()}</pre>
                            </li>
                        }
                    })
                    .collect();
                let console = deploy::console_text(&plan, version);
                let curl = register::curl_script(&plan.core(), version);
                view! {
                    <p class="hint" data-testid="deploy-status" data-api={match plan.api { Api::Unified => "unified", Api::Legacy => "legacy" }}>
                        {format!("ml-commons {version}: {} {}, {api}.", plan.steps.len(), if plan.steps.len() == 1 { "call" } else { "calls" })}
                    </p>
                    <ul class="diagnostics">{plan_items(&plan.warnings, "deploy-warning")}</ul>
                    <ol class="deploy-steps">{steps}</ol>
                    <details>
                        <summary>"Dev Tools console text"</summary>
                        <pre class="code-output" data-testid="deploy-console">{console}</pre>
                    </details>
                    <details>
                        <summary>"curl script"</summary>
                        <pre class="code-output" data-testid="deploy-curl">{curl}</pre>
                    </details>
                }
                .into_any()
            }
        }
    };
    view! {
        <details class="deploy" data-testid="deploy" on:toggle=move |ev| {
            open.set(event_target::<web_sys::Element>(&ev).has_attribute("open"));
        }>
            <summary id="deploy-title">"Deploy to OpenSearch"</summary>
            <p class="hint">"The calls that register an agent with these conversion settings (provider, system prompt, max tokens, temperature, top p) on an OpenSearch cluster. Credentials are written as "<code>"{{…}}"</code>" placeholders: replace them before sending. Tools, stop sequences, tool choice, caching and structured output are not part of the registration."</p>
            <div class="row">
                {field("deploy-name", "Agent name", |d| d.name.clone(), |d, v| d.name = v, Signal::stored(String::new()))}
                {field("deploy-model", "Model id", |d| d.model_id.clone(), |d, v| d.model_id = v, model_example)}
                {field("deploy-region", "Region (Bedrock)", |d| d.region.clone(), |d, v| d.region = v, Signal::stored("us-east-1".to_string()))}
            </div>
            <div class="row">
                <div class="field">
                    <label for="deploy-type">"Agent type"</label>
                    <select id="deploy-type" data-testid="deploy-type" on:change=move |ev| {
                        let v = event_target_value(&ev); deploy.update(|d| d.agent_type = v);
                    }>
                        <option value="conversational">"conversational"</option>
                        <option value="plan_execute_and_reflect">"plan_execute_and_reflect"</option>
                    </select>
                </div>
                <div class="field">
                    <label for="deploy-version">"ml-commons version"</label>
                    <select id="deploy-version" data-testid="deploy-version" on:change=move |ev| {
                        if let Some(v) = Version::parse(&event_target_value(&ev)) { deploy.update(|d| d.version = v); }
                    }>{versions}</select>
                </div>
                <div class="field">
                    <label for="deploy-api">"API"</label>
                    <select id="deploy-api" data-testid="deploy-api" on:change=move |ev| {
                        let api = match event_target_value(&ev).as_str() { "unified" => Some(Api::Unified), "legacy" => Some(Api::Legacy), _ => None };
                        deploy.update(|d| d.api = api);
                    }>
                        <option value="">"the version's default"</option>
                        <option value="legacy">"legacy (connector, model, agent)"</option>
                        <option value="unified">"unified"</option>
                    </select>
                </div>
            </div>
            <div class="field">
                <label for="deploy-body">"Registration body (built from the settings; edit it freely)"</label>
                <textarea id="deploy-body" class="code" data-testid="deploy-body" rows="8" spellcheck="false"
                    prop:value=move || text().unwrap_or_default()
                    on:input=move |ev| edited.set(Some(event_target_value(&ev)))></textarea>
                <button type="button" data-testid="deploy-rebuild" disabled=move || edited.with(Option::is_none)
                    on:click=move |_| edited.set(None)>"Rebuild from the settings"</button>
            </div>
            {body}
            <div class="actions">
                <button type="button" data-testid="deploy-copy-console" on:click=move |_| copy_text(false)>"Copy for Dev Tools"</button>
                <button type="button" data-testid="deploy-copy-curl" on:click=move |_| copy_text(true)>"Copy as curl"</button>
                <span class="hint" role="status">{move || status.get()}</span>
            </div>
        </details>
    }
}
