//! The workspace's layout rules: in every crate, modules depend on each other one way only, no
//! hand-written source file grows past 700 lines, the core names a provider only in its folder
//! under `providers/`, and the playground's scripts name none (the wasm module tells them). A module depends on another when its code names
//! it by path — `crate::x`, `super::x`, `self::x`, a child `x::` in a parent — so a circle through a
//! re-export counts too; comments and doc links do not (they order nothing).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 700;

/// The workspace's root folder.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is in the workspace").to_path_buf()
}

/// Every module of the crate whose sources are in `src`, by path (`provider::bedrock`; the root,
/// `lib.rs` or a binary's `main.rs`, is `crate`), with its text.
fn modules(src: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("a folder entry").path();
            let stem = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 name").to_string();
            if path.is_dir() {
                walk(&path, &[prefix, &[stem]].concat(), out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let segments = if stem == "mod" || (prefix.is_empty() && (stem == "lib" || stem == "main")) {
                    prefix.to_vec()
                } else {
                    [prefix, &[stem]].concat()
                };
                let name = if segments.is_empty() { "crate".to_string() } else { segments.join("::") };
                out.insert(name, code(&std::fs::read_to_string(&path).expect("a source file")));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &[], &mut out);
    // A crate with a library and a binary: the binary is a client of the library, not a module.
    if src.join("lib.rs").exists() && src.join("main.rs").exists() {
        out.insert("crate".to_string(), code(&std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs")));
    }
    out
}

/// `text` without its comments (each `//` to the end of its line; a `//` inside a string literal
/// cuts the rest of that line too, which only loses a path written in a string).
fn code(text: &str) -> String {
    text.lines().map(|line| line.split_once("//").map_or(line, |(code, _)| code)).collect::<Vec<_>>().join("\n")
}

fn parent(module: &str) -> &str {
    module.rsplit_once("::").map_or("crate", |(parent, _)| parent)
}

fn join(base: &str, path: &str) -> String {
    if base == "crate" { path.to_string() } else { format!("{base}::{path}") }
}

/// The longest module that `path` (relative to the crate root) starts with.
fn resolve(path: &str, modules: &BTreeMap<String, String>) -> Option<String> {
    let segments: Vec<&str> = path.split("::").collect();
    (1..=segments.len()).rev().map(|n| segments[..n].join("::")).find(|candidate| modules.contains_key(candidate))
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths written after `prefix::` in `text`, grouped imports (`{a, b::c}`) spread out.
fn paths_after(text: &str, prefix: &str) -> Vec<String> {
    let needle = format!("{prefix}::");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(&needle).map(|i| i + from) {
        from = at + needle.len();
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| is_ident(c) || c == ':') {
            continue;
        }
        let rest = &text[from..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map_or(group.len(), |(i, _)| i);
            let mut depth = 0;
            let mut item = String::new();
            for c in group[..end].chars().chain([',']) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let head: String = item.trim().chars().take_while(|&c| is_ident(c) || c == ':').collect();
                        out.push(head.trim_end_matches(':').to_string());
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
        } else {
            let path: String = rest.chars().take_while(|&c| is_ident(c) || c == ':').collect();
            out.push(path.trim_end_matches(':').to_string());
        }
    }
    out
}

/// Each module's dependencies on the crate's other modules.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules(src);
    let mut graph = BTreeMap::new();
    for (name, text) in &modules {
        // A file's own `mod tests` is left out: a test may use any module.
        let code = text.split_once("#[cfg(test)]\nmod tests {").map_or(text.as_str(), |(code, _)| code);
        let mut deps = BTreeSet::new();
        for path in paths_after(code, "crate") {
            deps.extend(resolve(&path, &modules));
        }
        for path in paths_after(code, "super") {
            deps.insert(resolve(&join(parent(name), &path), &modules).unwrap_or_else(|| parent(name).to_string()));
        }
        for path in paths_after(code, "self") {
            deps.extend(resolve(&join(name, &path), &modules));
        }
        for child in modules.keys().filter(|child| *child != name && parent(child) == name) {
            let short = child.rsplit("::").next().unwrap_or(child);
            if !paths_after(code, short).is_empty() {
                deps.insert(child.clone());
            }
        }
        deps.remove(name);
        deps.remove("crate");
        graph.insert(name.clone(), deps);
    }
    graph
}

/// A circle through `start`, if any: depth-first, the path so far on `stack`.
fn circle(
    graph: &BTreeMap<String, BTreeSet<String>>,
    node: &str,
    stack: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(at) = stack.iter().position(|n| n == node) {
        return Some([&stack[at..], &[node.to_string()]].concat());
    }
    if done.contains(node) {
        return None;
    }
    stack.push(node.to_string());
    for next in graph.get(node).into_iter().flatten() {
        if let Some(found) = circle(graph, next, stack, done) {
            return Some(found);
        }
    }
    stack.pop();
    done.insert(node.to_string());
    None
}

/// The crates' source folders, and a dependency each must show (the graph is read from the
/// files: a module lost from it would pass unseen).
const CRATES: &[(&str, &str, &str)] = &[
    ("crates/agent-input/src", "providers::gemini::request", "providers::common::convert"),
    ("crates/agent-gateway/src", "provider::bedrock", "sigv4"),
    ("crates/agent-input-cli/src", "crate", "crate"),
    ("crates/agent-input-wasm/src", "crate", "api"),
    ("web/src", "crate", "view"),
];

#[test]
fn modules_depend_one_way() {
    for &(src, module, dependency) in CRATES {
        let graph = graph(&root().join(src));
        let listing: Vec<String> = graph
            .iter()
            .map(|(name, deps)| format!("{name} -> {}", deps.iter().cloned().collect::<Vec<_>>().join(", ")))
            .collect();
        assert!(
            dependency == "crate" || graph.get(module).is_some_and(|deps| deps.contains(dependency)),
            "{src}: {module} should depend on {dependency}: {listing:#?}"
        );
        let circles: BTreeSet<String> = graph
            .keys()
            .filter_map(|name| circle(&graph, name, &mut Vec::new(), &mut BTreeSet::new()))
            .map(|found| found.join(" -> "))
            .collect();
        assert!(circles.is_empty(), "{src}: modules import each other:\n{circles:#?}\n{listing:#?}");
    }
}

#[test]
fn a_circle_is_found() {
    // The gateway's allowlist back in its configuration, which names the fetcher: a circle.
    let mut graph = graph(&root().join("crates/agent-gateway/src"));
    graph.get_mut("config").expect("config").insert("fetch".into());
    graph.get_mut("fetch").expect("fetch").insert("config".into());
    let found = graph.keys().find_map(|name| circle(&graph, name, &mut Vec::new(), &mut BTreeSet::new()));
    let mut found = found.expect("a circle");
    found.sort();
    found.dedup();
    assert_eq!(found, ["config", "fetch"]);
    // And the reading sees the shapes the crates use.
    assert_eq!(paths_after("use crate::{a::B, c, d::{e, f}};", "crate"), ["a::B", "c", "d"]);
    assert_eq!(paths_after("x::y; bedrock::check(); abedrock::z", "bedrock"), ["check"]);
}

/// Files a script writes, which may be long: each names its generator in its first lines.
fn generated(text: &str) -> bool {
    text.lines().take(5).any(|line| line.contains("Generated by") || line.contains("generated by"))
}

#[test]
fn no_hand_written_source_file_is_over_700_lines() {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, usize)>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("a folder entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if path.is_dir() && !matches!(name, "target" | "node_modules" | "vendor" | ".git" | "corpus" | "artifacts")
            {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs" || e == "mjs" || e == "js" || e == "py") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                if !generated(&text) {
                    out.push((path.clone(), text.lines().count()));
                }
            }
        }
    }
    let mut files = Vec::new();
    for dir in ["crates", "web", "tests", "scripts", "bench", "fuzz"] {
        walk(&root().join(dir), &mut files);
    }
    assert!(files.len() > 100, "{files:?}");
    let long: Vec<_> = files.iter().filter(|(_, lines)| *lines > MAX_LINES).collect();
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:#?}");
}

/// The providers' names, lower-case, as code spells them (`BedrockConverse`, `OPENAI_ROLES`,
/// `"gemini"`).
const PROVIDER_NAMES: &[&str] = &["bedrock", "converse", "openai", "anthropic", "gemini"];

/// The provider names in `text`'s code (comments and the file's own `mod tests` left out), each
/// with its line.
fn provider_names(text: &str) -> Vec<(usize, String)> {
    let code = code(text);
    names_in(code.split_once("#[cfg(test)]\nmod tests {").map_or(code.as_str(), |(code, _)| code))
}

/// The provider names in `code` (comments already left out), each with its line.
fn names_in(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in code.lines().enumerate() {
        let lower = line.to_ascii_lowercase();
        for name in PROVIDER_NAMES.iter().filter(|name| lower.contains(**name)) {
            found.push((i + 1, format!("{name}: {}", line.trim())));
        }
    }
    found
}

/// Everything one provider knows sits in its folder under `providers/`, behind its adapter, and
/// `providers/dispatch.rs` maps the provider's id (`providers/id.rs`) to it: outside `providers/`,
/// no code of the core names a provider (comments and tests may).
#[test]
fn only_providers_name_a_provider() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "providers") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") && path.file_name().is_some_and(|n| n != "tests.rs") {
                // A module's tests in a file of their own (`mod tests;`) are tests too.
                out.push(path);
            }
        }
    }
    let src = root().join("crates/agent-input/src");
    assert!(src.join("providers/dispatch.rs").exists() && src.join("providers/id.rs").exists());
    let mut files = Vec::new();
    walk(&src, &mut files);
    assert!(files.len() > 40, "{files:?}");
    let named: Vec<String> = files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).expect("a source file");
            let file = path.strip_prefix(&src).expect("under src").display().to_string();
            provider_names(&text).into_iter().map(move |(line, what)| format!("{file}:{line}: {what}"))
        })
        .collect();
    assert!(
        named.is_empty(),
        "a provider named outside providers/ (move the rule into the provider's folder and reach it through providers/dispatch.rs):\n{named:#?}"
    );
}

#[test]
fn a_provider_name_in_code_is_found() {
    let text = "//! Bedrock Converse, in a comment.\nfn f() {\n    let x = OPENAI_ROLES; // Gemini\n    g(\"use gemini\");\n}\n#[cfg(test)]\nmod tests {\n    fn anthropic() {}\n}\n";
    let found: Vec<usize> = provider_names(text).into_iter().map(|(line, _)| line).collect();
    assert_eq!(found, [3, 4]);
}

/// `text`, a script, without its comments (`//` to the end of its line, `/* … */`, whose line
/// breaks are kept so lines keep their numbers). String, template and regular-expression literals
/// are read whole, so the `//` of a URL in a string does not start a comment.
fn script_code(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    // The last character of code but white space: after an operator or an opening bracket, a `/`
    // starts a regular expression; after a name or a closing bracket, it divides.
    let mut last = '\n';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if matches!(c, '"' | '\'' | '`') || (c == '/' && "\n(,=:[!&|?{};+-*%<>~^".contains(last)) {
            out.push(c);
            i += 1;
            let mut class = false;
            while i < chars.len() {
                let d = chars[i];
                out.push(d);
                i += 1;
                if d == '\\' {
                    if let Some(&escaped) = chars.get(i) {
                        out.push(escaped);
                        i += 1;
                    }
                } else if d == '\n' && c != '`' {
                    break;
                } else if c == '/' && (d == '[' || d == ']') {
                    class = d == '[';
                } else if d == c && !class {
                    break;
                }
            }
            last = c;
        } else {
            out.push(c);
            if !c.is_whitespace() {
                last = c;
            }
            i += 1;
        }
    }
    out
}

/// The playground's scripts (`web/src/**/*.js`) name no provider outside their comments: the
/// providers, their names and how each is recognised come from the core through the wasm modules.
#[test]
fn the_playgrounds_scripts_name_no_provider() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "js") {
                out.push(path);
            }
        }
    }
    let src = root().join("web/src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    assert!(files.iter().any(|f| f.ends_with("import_view.js")), "{files:?}");
    let named: Vec<String> = files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).expect("a script");
            let file = path.strip_prefix(&src).expect("under src").display().to_string();
            names_in(&script_code(&text)).into_iter().map(move |(line, what)| format!("{file}:{line}: {what}"))
        })
        .collect();
    assert!(
        named.is_empty(),
        "a provider named in the playground's scripts (take it from the wasm module):\n{named:#?}"
    );
}

#[test]
fn a_provider_name_in_a_script_is_found() {
    let text = "// Bedrock, in a comment.\nconst a = 'https://api.openai.com/v1'; // Gemini\n/* Anthropic\n */ const b = /\\/converse$/;\nconst c = x / 2; // anthropic\nconst d = `${a}//gemini`; /* openai */\nconst e = '//'; f(\"Anthropic\");\n";
    let found: Vec<usize> = names_in(&script_code(text)).into_iter().map(|(line, _)| line).collect();
    assert_eq!(found, [2, 4, 6, 7]);
}
