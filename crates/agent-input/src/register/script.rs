//! The plan as a bash script of curl calls (what `agent-input register-plan --format curl` prints
//! and the playground's "Deploy to `OpenSearch`" copies).

use super::plan::{Api, Plan, Version};

/// A bash script of the plan's calls. Bodies are quoted heredocs (nothing in them is expanded:
/// `${parameters.…}` reaches the cluster as written); an id is read from an answer with grep and
/// sed and put in place of its `"{{…}}"` placeholder in later bodies.
pub fn curl_script(plan: &Plan, version: Version) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "#!/usr/bin/env bash");
    let _ = writeln!(
        out,
        "# Registers an agent on ml-commons {version}: {} call(s) ({} API), written by agent-input.",
        plan.steps.len(),
        match plan.api {
            Api::Unified => "unified",
            Api::Legacy => "legacy",
        }
    );
    out.push_str(concat!(
        "# Needs bash, curl (7.76+), grep and sed. OPENSEARCH_URL is the cluster (https://localhost:9200);\n",
        "# OPENSEARCH_AUTH, if set, is user:password. TLS is verified: CURL_CA_BUNDLE names a CA file.\n",
        "set -euo pipefail\n",
        ": \"${OPENSEARCH_URL:?set OPENSEARCH_URL, e.g. https://localhost:9200}\"\n",
        "auth=()\n",
        "if [ -n \"${OPENSEARCH_AUTH:-}\" ]; then auth=(-u \"$OPENSEARCH_AUTH\"); fi\n",
        "\n",
        "# call METHOD PATH < body: sends the body, prints the answer, fails on an HTTP error.\n",
        "call() {\n",
        "  curl -sS --fail-with-body ${auth[@]+\"${auth[@]}\"} -X \"$1\" \"${OPENSEARCH_URL%/}$2\" \\\n",
        "    -H 'Content-Type: application/json' --data-binary @-\n",
        "}\n",
        "\n",
        "fail() { echo \"agent-input register-plan: the call failed: $1\" >&2; exit 1; }\n",
        "\n",
        "# field NAME < answer: the first string value of NAME in a JSON answer.\n",
        "field() {\n",
        "  grep -o \"\\\"$1\\\" *: *\\\"[^\\\"]*\\\"\" | head -n 1 | sed 's/.*\"\\([^\"]*\\)\"$/\\1/'\n",
        "}\n",
    ));
    let mut known: Vec<&str> = Vec::new();
    for (i, step) in plan.steps.iter().enumerate() {
        let body = serde_json::to_string(&step.body).unwrap_or_default();
        let _ = writeln!(out, "\n# {}. {} {}", i + 1, step.method.as_str(), step.path);
        let substitutions: Vec<String> = known
            .iter()
            .filter(|id| body.contains(&format!("\"{{{{{id}}}}}\"")))
            .map(|id| format!("s/\"{{{{{id}}}}}\"/\"'\"${id}\"'\"/g"))
            .collect();
        let send = format!("call {} {}", step.method.as_str(), step.path);
        if substitutions.is_empty() {
            let _ = writeln!(out, "answer=$({send} <<'JSON'\n{body}\nJSON\n) || fail \"$answer\"");
        } else {
            let _ = writeln!(
                out,
                "answer=$(sed '{}' <<'JSON' | {send}\n{body}\nJSON\n) || fail \"$answer\"",
                substitutions.join("; ")
            );
        }
        match step.returns {
            Some(id) => {
                let _ = writeln!(out, "{id}=$(printf '%s' \"$answer\" | field {id} || true)");
                let _ = writeln!(out, "[ -n \"${id}\" ] || {{ echo \"no {id} in the answer: $answer\" >&2; exit 1; }}");
                let _ = writeln!(out, "echo \"{id}=${id}\" >&2");
                known.push(id);
            }
            None => {
                let _ = writeln!(out, "echo \"$answer\" >&2");
            }
        }
    }
    if known.contains(&"agent_id") {
        out.push_str("\necho \"$agent_id\"");
    }
    out
}
