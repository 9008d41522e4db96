#!/usr/bin/env python3
"""Writes crates/agent-input/src/providers/models/table.rs: what each model family takes (images, PDFs,
video, reasoning, function calling, system messages, parallel tool calls, most output tokens).

Source: LiteLLM's model map (MIT licence, scripts/models/LICENSE-litellm), shipped in its PyPI
wheel as litellm/model_prices_and_context_window_backup.json. The ids of the families below are
kept, with the fields read, in scripts/models/litellm-subset.json (with the wheel's version and the
day it was read), so the table is regenerated and checked without a download.

A family's figure is what all its ids in the map agree on: "yes" or "no" when they all say so,
"varies" when they differ, "unknown" when none says; the most output tokens is the largest of
them (a request over it is refused by every member). Where the providers' own documentation says
otherwise, OVERRIDES below wins, and the disagreement is written into the table's comments.

It also writes crates/agent-input/tests/data/model_ids.json, every chat id of the map's providers
with the family given here, which the Rust lookup is tested against.

Run:
  python3 scripts/gen-models.py            # table.rs and model_ids.json from the pinned subset
  python3 scripts/gen-models.py --check    # compare with the committed table.rs (scripts/test)
  python3 scripts/gen-models.py --wheel litellm-1.110.2-....whl --date 2026-11-29
      # refresh the subset: pip download litellm==1.110.2 --no-deps -d <dir>
Standard library only.
"""

import json
import pathlib
import re
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SUBSET = ROOT / "scripts/models/litellm-subset.json"
TABLE = ROOT / "crates/agent-input/src/providers/models/table.rs"
IDS = ROOT / "crates/agent-input/tests/data/model_ids.json"
MAX_WIDTH = 120  # rustfmt.toml
MAP_IN_WHEEL = "litellm/model_prices_and_context_window_backup.json"

# The LiteLLM providers whose ids are the ones users write to the APIs this project speaks.
PROVIDERS = ("openai", "anthropic", "gemini", "vertex_ai-language-models", "vertex_ai-anthropic_models",
             "bedrock", "bedrock_converse")

FIELDS = {
    "image_input": "supports_vision",
    "pdf_input": "supports_pdf_input",
    "video_input": "supports_video_input",
    "reasoning": "supports_reasoning",
    "function_calling": "supports_function_calling",
    "system_messages": "supports_system_messages",
    "parallel_tool_calls": "supports_parallel_function_calling",
    "mid_conversation_system": "supports_mid_conversation_system",
}

# (id, vendor, name, patterns). A pattern matches a normalized model id (models::normalize) that
# is the pattern or the pattern then `-` and more, unless what follows is a one- or two-digit
# minor version (`claude-opus-4` does not take `claude-opus-4-7`). `*` stands for a number.
FAMILIES = [
    ("gpt-4o", "OpenAi", "GPT-4o", ["gpt-4o", "chatgpt-4o"]),
    ("gpt-4o-mini", "OpenAi", "GPT-4o mini", ["gpt-4o-mini"]),
    ("gpt-4.1", "OpenAi", "GPT-4.1 (mini, nano)", ["gpt-4.1"]),
    ("o1", "OpenAi", "o1", ["o1"]),
    ("o3", "OpenAi", "o3", ["o3"]),
    ("o3-mini", "OpenAi", "o3-mini", ["o3-mini"]),
    ("o4-mini", "OpenAi", "o4-mini", ["o4-mini"]),
    ("gpt-5", "OpenAi", "GPT-5 (mini, nano)", ["gpt-5"]),
    ("gpt-5.x", "OpenAi", "GPT-5.1 and later (mini, nano)", ["gpt-5.*"]),
    ("gpt-5-chat", "OpenAi", "GPT-5 chat (no reasoning)", ["gpt-5-chat", "gpt-5.*-chat"]),
    ("claude-3", "Anthropic", "Claude 3 (Haiku, Sonnet, Opus)", ["claude-3-haiku", "claude-3-sonnet", "claude-3-opus"]),
    ("claude-3.5", "Anthropic", "Claude 3.5 (Sonnet, Haiku)", ["claude-3-5-sonnet", "claude-3-5-haiku"]),
    ("claude-3.7", "Anthropic", "Claude 3.7 Sonnet (extended thinking)", ["claude-3-7-sonnet"]),
    ("claude-4", "Anthropic", "Claude 4 to 4.6 (extended thinking with a budget)",
     ["claude-sonnet-4", "claude-opus-4", "claude-opus-4-1", "claude-sonnet-4-5", "claude-haiku-4-5",
      "claude-opus-4-5", "claude-opus-4-6", "claude-sonnet-4-6"]),
    ("claude-4.7", "Anthropic", "Claude Opus 4.7 and later (adaptive thinking only)",
     ["claude-opus-4-7", "claude-opus-4-8", "claude-sonnet-5", "claude-opus-5", "claude-sonnet-5-5",
      "claude-opus-5-5", "claude-haiku-5-5"]),
    ("gemini-2.5-pro", "Google", "Gemini 2.5 Pro", ["gemini-2.5-pro"]),
    ("gemini-2.5-flash", "Google", "Gemini 2.5 Flash", ["gemini-2.5-flash"]),
    ("gemini-2.5-flash-lite", "Google", "Gemini 2.5 Flash-Lite", ["gemini-2.5-flash-lite"]),
    ("gemini-3", "Google", "Gemini 3 and later (thinking levels)",
     ["gemini-3-pro", "gemini-3-flash", "gemini-3.*-pro", "gemini-3.*-flash"]),
    ("llama3", "Meta", "Llama 3 Instruct (8B, 70B)", ["llama3-8b-instruct", "llama3-70b-instruct"]),
    ("llama3.x", "Meta", "Llama 3.1 to 3.3 Instruct", ["llama3-1", "llama3-2", "llama3-3"]),
    ("nova", "Amazon", "Amazon Nova (Micro, Lite, Pro, Premier)",
     ["nova-micro", "nova-lite", "nova-pro", "nova-premier", "nova-2-lite"]),
    ("titan-text", "Amazon", "Amazon Titan Text", ["titan-text-express", "titan-text-lite", "titan-text-premier"]),
    ("mistral-instruct", "Mistral", "Mistral 7B and Mixtral 8x7B Instruct",
     ["mistral-7b-instruct", "mixtral-8x7b-instruct"]),
]

# What the providers' documentation says where the map says otherwise or nothing: (family, field)
# -> (value, where it is said). The table keeps both.
OVERRIDES = {
    ("titan-text", "system_messages"): ("No", "Bedrock Converse supported features table: Titan, no system prompts"),
    ("mistral-instruct", "system_messages"): ("No", "Bedrock Converse supported features table: Mistral AI Instruct, no system prompts"),
    ("llama3", "function_calling"): ("No", "Bedrock Converse supported features table: Llama 2 and Llama 3, no tool use"),
    ("llama3", "image_input"): ("No", "Bedrock Converse supported features table: Llama 2 and Llama 3, no vision"),
    ("llama3.x", "function_calling"): ("Varies", "Bedrock Converse supported features table: tool use on Llama 3.1 and 3.2 11B/90B, not on 3.2 1B/3B"),
    ("llama3.x", "image_input"): ("Varies", "Bedrock Converse supported features table: vision on Llama 3.2 11B/90B only"),
    ("mistral-instruct", "function_calling"): ("No", "Bedrock Converse supported features table: Mistral AI Instruct, no tool use"),
    ("titan-text", "function_calling"): ("No", "Bedrock Converse supported features table: Titan, no tool use"),
    ("titan-text", "image_input"): ("No", "Bedrock Converse supported features table: Titan, no vision"),
    ("claude-3.7", "max_output_tokens"): ("Some(128_000)", "Anthropic's models overview: 64000, 128000 with the `output-128k-2025-02-19` beta header"),
    ("claude-3", "system_messages"): ("Yes", "Anthropic Messages takes a top-level system prompt for every model"),
    ("claude-3.5", "system_messages"): ("Yes", "Anthropic Messages takes a top-level system prompt for every model"),
    ("claude-3.7", "system_messages"): ("Yes", "Anthropic Messages takes a top-level system prompt for every model"),
    ("claude-4", "system_messages"): ("Yes", "Anthropic Messages takes a top-level system prompt for every model"),
    ("claude-4.7", "system_messages"): ("Yes", "Anthropic Messages takes a top-level system prompt for every model"),
}

REGIONS = ("us-gov.", "global.", "apac.", "us.", "eu.", "jp.", "au.", "ca.")
VENDORS = ("anthropic.", "meta.", "amazon.", "mistral.", "cohere.", "ai21.", "deepseek.", "openai.", "qwen.", "writer.")
BEDROCK_VERSION = re.compile(r"(-v\d+(:\d+)?|:\d+)(:\d+k)?$")


def normalize(model_id):
    """As models::normalize: the id users write, reduced to what family patterns match."""
    s = model_id.strip().lower()
    s = s.rsplit("/", 1)[-1]
    s = s.split("@", 1)[0]
    for prefix in REGIONS:
        if s.startswith(prefix):
            s = s[len(prefix):]
            break
    for prefix in VENDORS:
        if s.startswith(prefix):
            s = s[len(prefix):]
            break
    return BEDROCK_VERSION.sub("", s)


def pattern_match(pattern, s):
    """Length of the literal part when `pattern` matches `s`, else None (as models::lookup)."""
    head, star, tail = pattern.partition("*")
    if not s.startswith(head):
        return None
    rest = s[len(head):]
    if star:
        digits = len(rest) - len(rest.lstrip("0123456789"))
        if digits == 0 or not rest[digits:].startswith(tail):
            return None
        rest = rest[digits + len(tail):]
    if rest == "":
        return len(head) + len(tail)
    if not rest.startswith("-"):
        return None
    segment = rest[1:].split("-", 1)[0]
    if segment.isdigit() and len(segment) <= 2:
        return None
    return len(head) + len(tail)


def family_of(model_id):
    s = normalize(model_id)
    best = None
    for family, _vendor, _name, patterns in FAMILIES:
        for pattern in patterns:
            length = pattern_match(pattern, s)
            if length is not None and (best is None or length > best[1]):
                best = (family, length)
    return best and best[0]


def refresh(wheel, date):
    with zipfile.ZipFile(wheel) as archive:
        data = json.loads(archive.read(MAP_IN_WHEEL))
    version = re.search(r"litellm-([0-9.]+)-", pathlib.Path(wheel).name).group(1)
    keep, others = {}, []
    for model_id, entry in sorted(data.items()):
        if not isinstance(entry, dict) or entry.get("litellm_provider") not in PROVIDERS:
            continue
        if entry.get("mode") != "chat":
            continue
        if family_of(model_id) is None:
            others.append(model_id)
            continue
        fields = {k: entry[k] for k in ["litellm_provider", "max_output_tokens", *FIELDS.values()] if k in entry}
        keep[model_id] = fields
    subset = {"source": {"package": "litellm", "version": version, "file": MAP_IN_WHEEL, "read": date,
                         "licence": "MIT, scripts/models/LICENSE-litellm"}, "models": keep,
              "ids_in_no_family": others}
    SUBSET.parent.mkdir(parents=True, exist_ok=True)
    SUBSET.write_text(json.dumps(subset, indent=1, sort_keys=True) + "\n")


def support(values):
    values = set(values)
    if not values:
        return "Unknown"
    if len(values) > 1:
        return "Varies"
    return "Yes" if values.pop() else "No"


def render(subset):
    source = subset["source"]
    members = {family: [] for family, *_ in FAMILIES}
    for model_id, entry in subset["models"].items():
        family = family_of(model_id)
        if family:
            members[family].append((model_id, entry))
    lines = [
        "// @generated by scripts/gen-models.py from LiteLLM's model map: do not edit.",
        f"// Source: PyPI `{source['package']}=={source['version']}`, `{source['file']}`, read {source['read']};",
        "// MIT licence (scripts/models/LICENSE-litellm). Where the providers' documentation says",
        "// otherwise, it wins; each such figure says where.",
        "",
        "use super::family::Support::{No, Unknown, Varies, Yes};", "use super::family::{Family, Vendor};",
        "",
        f"/// The source of [`FAMILIES`]: `LiteLLM`'s model map, version and day read.",
        f"pub const SOURCE: &str = \"litellm {source['version']} ({source['read']})\";",
        "",
        "/// Every known family; a model id matches the family with the longest matching pattern.",
        "pub(super) static FAMILIES: &[Family] = &[",
    ]
    for family, vendor, name, patterns in FAMILIES:
        rows = members[family]
        if not rows:
            sys.exit(f"gen-models: no id of the map is in family {family}")
        lines.append("    Family {")
        lines.append(f"        id: {json.dumps(family)},")
        lines.append(f"        name: {json.dumps(name)},")
        lines.append(f"        vendor: Vendor::{vendor},")
        one_line = f"        patterns: &[{', '.join(json.dumps(p) for p in patterns)}],"
        if len(one_line) <= MAX_WIDTH:
            lines.append(one_line)
        else:  # as rustfmt writes it
            lines.append("        patterns: &[")
            lines.extend(f"            {json.dumps(p)}," for p in patterns)
            lines.append("        ],")
        for field, key in FIELDS.items():
            value = support(entry[key] for _, entry in rows if key in entry)
            override = OVERRIDES.get((family, field))
            if override and override[0] != value:
                lines.append(f"        // The map: {value}. {override[1]}.")
                value = override[0]
            lines.append(f"        {field}: {value},")
        tokens = [entry["max_output_tokens"] for _, entry in rows if isinstance(entry.get("max_output_tokens"), int)]
        most = f"Some({max(tokens):_})" if tokens else "None"
        override = OVERRIDES.get((family, "max_output_tokens"))
        if override and override[0] != most:
            lines.append(f"        // The map: {most}. {override[1]}.")
            most = override[0]
        lines.append(f"        max_output_tokens: {most},")
        lines.append(f"        ids_in_source: {len(rows)},")
        lines.append("    },")
    lines.append("];")
    return "\n".join(lines) + "\n"


def ids(subset):
    """Every chat id of the map's providers with the family this script gives it (null: none), for
    the lookup's test: the Rust lookup must agree with this one on each."""
    pairs = {model_id: family_of(model_id) for model_id in [*subset["models"], *subset["ids_in_no_family"]]}
    return json.dumps(dict(sorted(pairs.items())), indent=0) + "\n"


def main(argv):
    if "--wheel" in argv:
        date = argv[argv.index("--date") + 1] if "--date" in argv else sys.exit("gen-models: --wheel needs --date")
        refresh(argv[argv.index("--wheel") + 1], date)
    subset = json.loads(SUBSET.read_text())
    outputs = {TABLE: render(subset), IDS: ids(subset)}
    if "--check" in argv:
        stale = [str(path.relative_to(ROOT)) for path, text in outputs.items() if not path.exists() or path.read_text() != text]
        if stale:
            print(f"gen-models: {', '.join(stale)} differ; run python3 scripts/gen-models.py")
            return 1
        print("gen-models: table.rs and model_ids.json reproduce")
        return 0
    for path, text in outputs.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
