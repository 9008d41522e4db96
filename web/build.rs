//! Picks the playground's examples out of the conformance fixtures (tests/fixtures), so the
//! examples are cases every layer is tested on, and writes them to `$OUT_DIR/examples.json`; and
//! the model ids the capability table was generated from (scripts/models/litellm-subset.json),
//! by provider, as the model field's suggestions, to `$OUT_DIR/model_ids.rs` (a Rust array: no
//! JSON reader for them in the app).

use std::path::Path;

/// (fixture file, case name, label).
const EXAMPLES: &[(&str, &str, &str)] = &[
    ("mlcommons_vectors", "vector 28 text question", "Text"),
    ("content_blocks", "text and base64 image", "Text and a base64 image"),
    ("content_blocks", "image from s3 url", "Image from an S3 URL"),
    ("content_blocks", "document with name", "A named document"),
    ("messages", "system then user", "System and user messages"),
    ("tool_calls", "tool round trip", "A tool call round trip"),
    ("question", "legacy question is returned unchanged", "Legacy parameters.question"),
    ("formats", "bmp image", "Mistake: a BMP image"),
    ("content_blocks", "unknown block type audio", "Mistake: an audio block"),
    ("messages", "last message assistant", "Mistake: ends with an assistant message"),
];

fn main() {
    // Read at run time: a build script compiled in another checkout sharing this target directory
    // must not read that checkout's fixtures.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let fixtures = Path::new(&manifest_dir).join("../tests/fixtures");
    println!("cargo::rerun-if-changed={}", fixtures.display());
    let mut out = Vec::new();
    for (file, name, label) in EXAMPLES {
        let path = fixtures.join(format!("{file}.json"));
        println!("cargo::rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let case = parsed["cases"]
            .as_array()
            .and_then(|cases| cases.iter().find(|c| c["name"] == *name))
            .unwrap_or_else(|| panic!("no case {name:?} in {file}.json"));
        let request = case.get("request").unwrap_or_else(|| panic!("{file}/{name} has no request"));
        out.push(serde_json::json!({"file": file, "case": name, "label": label, "request": request}));
    }
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("examples.json");
    std::fs::write(dest, serde_json::to_string(&out).expect("serializable")).expect("writable OUT_DIR");
    model_ids(Path::new(&manifest_dir));
}

/// The providers whose API takes the ids of each of the source's `litellm_provider`s.
const MODEL_PROVIDERS: &[(&str, &[&str])] = &[
    ("openai", &["openai-chat", "openai-responses"]),
    ("anthropic", &["anthropic-messages"]),
    ("gemini", &["gemini"]),
    ("vertex_ai-language-models", &["gemini"]),
    ("bedrock_converse", &["bedrock-converse"]),
    ("bedrock", &["bedrock-converse"]),
];

/// `&[(provider, id), …]`: each id as a provider's API takes it (the source's `gemini/` and
/// `bedrock/<region>/` prefixes left out), once per provider, in the source's order.
fn model_ids(manifest_dir: &Path) {
    let path = manifest_dir.join("../scripts/models/litellm-subset.json");
    println!("cargo::rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let subset: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let models = subset["models"].as_object().unwrap_or_else(|| panic!("{}: no models", path.display()));
    let mut out: Vec<(String, String)> = Vec::new();
    for (key, facts) in models {
        let id = key.rsplit('/').next().unwrap_or(key);
        let source = facts["litellm_provider"].as_str().unwrap_or_default();
        let providers = MODEL_PROVIDERS.iter().find(|(name, _)| *name == source).map_or(&[][..], |(_, p)| p);
        for provider in providers {
            let pair = ((*provider).to_string(), id.to_string());
            if !out.contains(&pair) {
                out.push(pair);
            }
        }
    }
    let items: Vec<String> = out.iter().map(|(provider, id)| format!("({provider:?}, {id:?})")).collect();
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("model_ids.rs");
    std::fs::write(dest, format!("&[{}]", items.join(", "))).expect("writable OUT_DIR");
}
