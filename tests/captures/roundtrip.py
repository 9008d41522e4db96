#!/usr/bin/env python3
"""Round trip of the captured requests, read with nothing of the project but its CLI.

Each request of tests/captures/<case>/<folder>/ (request.json, followup-request.json) that the
provider accepted goes through `agent-input import --from P --to P`, and the body written is
compared with the captured one by plain JSON equality (Python's ==: same keys, same values,
numbers by value), after the exclusions and the documented equivalences below. Prints "N of M
round-trip unchanged", how many more change only where a warning names the change (a field left
out with `import_dropped` at its path, turns merged with `messages_merged`), and fails when fewer
than 98% of the requests are one or the other.

A request that the provider refused is not counted: it has a copy under tests/refusals/ (same
case, folder and file), or is one of the refusals tests/refusals/README.md leaves out (REFUSED).

Requests that hold a hosted or server tool's items (web search, code execution, tool search, ...)
or another provider item are classified like every other request, and counted apart as well, for
information: the 98% covers every accepted request.

Usage: python3 tests/captures/roundtrip.py [path/to/agent-input] [-v]
"""

import base64
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Capture folder -> provider id of the CLI.
PROVIDERS = {
    "anthropic": "anthropic-messages",
    "vertex-anthropic": "anthropic-messages",
    "chat-completions": "openai-chat",
    "responses": "openai-responses",
    "google": "gemini",
    "bedrock": "bedrock-converse",
}

# Refused by the provider, listed in tests/refusals/README.md as left out of tests/refusals/.
REFUSED = {
    "imageUrlMimeTypeFallbackParam/google/request.json",
    "simpleRequestTruncated/chat-completions/request.json",
}

# Fields that travel outside the request body, so a writer of the body does not write them:
# - The model of OpenAI and Anthropic: no written body carries it, the caller (the gateway, the
#   ml-commons connector) adds `model` (docs/contract.md, the providers' bodies); import gives it
#   as the `model` option.
# - Gemini's model is in the URL (`/v1beta/models/{model}:generateContent`); Lingua recorded it
#   in the body.
# - Bedrock Converse's modelId is in the URL (`/model/{modelId}/converse`).
# - Vertex AI's `anthropic_version` is the body's form of what the Messages API sends as the
#   `anthropic-version` header; the project writes the Messages API's body.
OUTSIDE = {
    "anthropic": ["model"],
    "chat-completions": ["model"],
    "responses": ["model"],
    "google": ["model"],
    "bedrock": ["modelId"],
    "vertex-anthropic": ["anthropic_version"],
}

# Items of hosted or server tools, by the key or `type` that names them in each provider's body.
HOSTED_TYPES = {
    "web_search_call", "web_search_call_output", "file_search_call", "code_interpreter_call",
    "computer_call", "computer_call_output", "image_generation_call", "local_shell_call",
    "local_shell_call_output", "mcp_call", "mcp_list_tools", "mcp_approval_request",
    "mcp_approval_response", "tool_search_call", "tool_search_output", "custom_tool_call",
    "custom_tool_call_output", "shell_call", "shell_call_output", "apply_patch_call",
    "apply_patch_call_output", "server_tool_use", "web_search_tool_result",
    "web_fetch_tool_result", "code_execution_tool_result", "bash_code_execution_tool_result",
    "text_editor_code_execution_tool_result", "tool_search_tool_result", "mcp_tool_use",
    "mcp_tool_result", "container_upload",
    # Other provider items without a standard form: tools added mid-conversation, a program run
    # by programmatic tool calling.
    "additional_tools", "program",
}
HOSTED_KEYS = {"executableCode", "codeExecutionResult", "toolCall", "toolResponse"}


def hosted(value):
    """Whether a hosted tool's item is anywhere in the conversation."""
    if isinstance(value, dict):
        if value.get("type") in HOSTED_TYPES or HOSTED_KEYS & value.keys():
            return True
        return any(hosted(v) for v in value.values())
    if isinstance(value, list):
        return any(hosted(v) for v in value)
    return False


def conversation(folder, body):
    return body.get("contents" if folder == "google" else "input" if folder == "responses" else "messages")


def requests():
    refused_copies = os.path.join(ROOT, "tests", "refusals")
    for case in sorted(os.listdir(HERE)):
        if not os.path.isdir(os.path.join(HERE, case)):
            continue
        for folder in sorted(os.listdir(os.path.join(HERE, case))):
            if folder not in PROVIDERS:
                continue
            for file in ("request.json", "followup-request.json"):
                path = os.path.join(HERE, case, folder, file)
                name = f"{case}/{folder}/{file}"
                if not os.path.exists(path):
                    continue
                if name in REFUSED or os.path.exists(os.path.join(refused_copies, case, folder, file)):
                    continue
                yield name, folder, path


def without(body, keys):
    return {k: v for k, v in body.items() if k not in keys}


# Spellings a provider documents as meaning the same, written here in the form the project writes
# (each one from the provider's API reference):
# - Messages, Chat Completions: a message's (and Messages' `system`, `tool_result`) `content`
#   string is one text block.
# - Responses: `input` as a string is one user message; an input message may leave out
#   `"type": "message"`; its `content` string is one `input_text` part (`output_text` for the
#   assistant).
# - Gemini: `parameters` / `responseSchema` (its OpenAPI subset, types in capitals) and
#   `parametersJsonSchema` / `responseJsonSchema` (JSON Schema) take the same schema; a content
#   without `role` is the user's.
# - Messages: `output_format` is the earlier name of `output_config.format`.
# - Every provider: the most output tokens is always written (docs/contract.md: `max_tokens`,
#   4096 when not given, ml-commons' default), so a body without it is compared with 4096 in it.
# - Every provider: a field whose value is null, [] or {} carries nothing (import reports no loss
#   for it, and the written body leaves it out), so it is compared as absent.
# - Bedrock: bytes are base64 on the wire; Lingua recorded the AWS SDK's byte arrays (a Node
#   Buffer's JSON, or an object of index to byte), which are compared as their base64.
def spelled(folder, body):
    body = empty_left_out(json.loads(json.dumps(body)))
    if folder == "bedrock":
        body = base64_bytes(body)
    if folder in ("anthropic", "vertex-anthropic", "chat-completions"):
        for message in body.get("messages", []):
            if isinstance(message.get("content"), str):
                message["content"] = [{"type": "text", "text": message["content"]}]
            for block in message.get("content") or []:
                if isinstance(block, dict) and block.get("type") == "tool_result" and isinstance(block.get("content"), str):
                    block["content"] = [{"type": "text", "text": block["content"]}]
        if "output_format" in body:
            body.setdefault("output_config", {})["format"] = body.pop("output_format")
        if isinstance(body.get("system"), str):
            body["system"] = [{"type": "text", "text": body["system"]}]
    if folder == "responses":
        if isinstance(body.get("input"), str):
            body["input"] = [{"role": "user", "content": body["input"]}]
        for item in body.get("input", []):
            if "role" in item and "type" not in item:
                item["type"] = "message"
            if item.get("type") == "message" and isinstance(item.get("content"), str):
                part = "output_text" if item.get("role") == "assistant" else "input_text"
                item["content"] = [{"type": part, "text": item["content"]}]
    if folder == "google":
        for content in body.get("contents", []):
            content.setdefault("role", "user")
        for tool in body.get("tools", []):
            for function in tool.get("functionDeclarations", []):
                if "parameters" in function:
                    function["parametersJsonSchema"] = lowercase_types(function.pop("parameters"))
        config = body.get("generationConfig", {})
        if "responseSchema" in config:
            config["responseJsonSchema"] = lowercase_types(config.pop("responseSchema"))
    default = {"anthropic": None, "vertex-anthropic": None, "chat-completions": "max_completion_tokens",
               "responses": "max_output_tokens"}
    if folder in default:
        key = default[folder]
        if key and key not in body and "max_tokens" not in body:
            body[key] = 4096
    elif folder == "google":
        body.setdefault("generationConfig", {}).setdefault("maxOutputTokens", 4096)
    elif folder == "bedrock":
        body.setdefault("inferenceConfig", {}).setdefault("maxTokens", 4096)
    return body


def empty_left_out(value):
    if isinstance(value, dict):
        return {k: empty_left_out(v) for k, v in value.items() if v not in (None, [], {})}
    if isinstance(value, list):
        return [empty_left_out(v) for v in value]
    return value


def base64_bytes(value):
    if isinstance(value, dict):
        raw = value.get("bytes")
        if isinstance(raw, dict) and raw.get("type") == "Buffer":
            value = {**value, "bytes": base64.b64encode(bytes(raw["data"])).decode()}
        elif isinstance(raw, dict) and raw and all(k.isdigit() for k in raw):
            value = {**value, "bytes": base64.b64encode(bytes(raw[str(i)] for i in range(len(raw)))).decode()}
        return {k: base64_bytes(v) for k, v in value.items()}
    if isinstance(value, list):
        return [base64_bytes(v) for v in value]
    return value


def lowercase_types(schema):
    if isinstance(schema, dict):
        return {k: v.lower() if k == "type" and isinstance(v, str) else lowercase_types(v) for k, v in schema.items()}
    if isinstance(schema, list):
        return [lowercase_types(v) for v in schema]
    return schema


def remove(body, pointer):
    """`body` without the value at JSON Pointer `pointer` (unchanged when it is not there); an
    object left empty by it goes too."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    if not parts:
        return None
    trail, node = [], body
    for part in parts[:-1]:
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            trail.append((node, int(part)))
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            trail.append((node, part))
            node = node[part]
        else:
            return body
    last = parts[-1]
    if isinstance(node, dict):
        node.pop(last, None)
    elif isinstance(node, list) and last.isdigit() and int(last) < len(node):
        node[int(last)] = None  # kept in place, so later pointers still resolve
    while trail and node == {}:
        parent, key = trail.pop()
        if isinstance(parent, dict):
            parent.pop(key)
        else:
            parent[key] = None
        node = parent
    return body


def named(body, warnings, items=True):
    """`body` without every field a warning names; with `items` False, without the named fields
    but not the named array items (in a written body, the items after a left-out one move up)."""
    body = json.loads(json.dumps(body))
    merged = [w["path"] for w in warnings if w.get("code") == "messages_merged"]
    for warning in sorted(warnings, key=lambda w: w["path"], reverse=True):
        if warning.get("code") == "messages_merged":
            continue
        if items or not warning["path"].rsplit("/", 1)[-1].isdigit():
            body = remove(body, warning["path"])
    if items:
        for path in sorted(merged, reverse=True):
            merge(body, path)
    return prune(body)


def merge(body, pointer):
    """The message at `pointer` appended to the one before it (what `messages_merged` says: one
    provider turn of the same role, which the provider reads as one)."""
    parent, _, index = pointer.rpartition("/")
    messages = resolve(body, parent)
    if not isinstance(messages, list) or not index.isdigit():
        return
    i = int(index)
    before = next((j for j in range(i - 1, -1, -1) if messages[j] is not None), None)
    if before is None or i >= len(messages) or messages[i] is None:
        return
    key = "parts" if "parts" in messages[i] else "content"
    blocks = lambda m: [{"type": "text", "text": m[key]}] if isinstance(m.get(key), str) else m.get(key) or []
    messages[before][key] = blocks(messages[before]) + blocks(messages[i])
    messages[i] = None


def resolve(body, pointer):
    node = body
    for part in [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]:
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return node


def prune(value):
    if isinstance(value, dict):
        return {k: prune(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [prune(v) for v in value if v is not None]
    return value


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    verbose = "-v" in sys.argv[1:]
    cli = args[0] if args else os.path.join(ROOT, "target", "debug", "agent-input")
    if not os.path.isfile(cli):
        sys.exit(f"{cli} is missing: build it with `cargo build -p agent-input-cli`, or give its path")
    counts = {"unchanged": 0, "named": 0, "silent": 0}
    items = {"unchanged": 0, "named": 0, "silent": 0}
    changed = []
    total = 0
    for name, folder, path in requests():
        total += 1
        with open(path, encoding="utf-8") as f:
            source = json.load(f)
        provider = PROVIDERS[folder]
        run = subprocess.run(
            [cli, "import", "--from", provider, "--to", provider, "--compact", path],
            capture_output=True, text=True, check=False,
        )
        if run.returncode not in (0, 1) or not run.stdout:
            sys.exit(f"{name}: agent-input failed ({run.returncode}): {run.stderr.strip()}")
        report = json.loads(run.stdout)
        written = report.get("body")
        skip = OUTSIDE.get(folder, [])
        got = spelled(folder, without(written, skip)) if isinstance(written, dict) else None
        warnings = report.get("warnings", [])
        if got == spelled(folder, without(source, skip)):
            kind = "unchanged"
        elif got is not None and named(got, warnings, items=False) == spelled(folder, named(without(source, skip), warnings)):
            kind = "named"
            changed.append((name, kind, "changed where warnings say: "
                            + ", ".join(sorted({w["path"] for w in warnings}))))
        else:
            kind = "silent"
            errors = ", ".join(f'{e["code"]} at {e["path"]}' for e in report.get("errors", []))
            changed.append((name, kind, f"not written: {errors}" if written is None else "changed without a warning"))
        counts[kind] += 1
        if hosted(conversation(folder, source)):
            items[kind] += 1
    for name, kind, why in changed:
        if verbose or kind == "silent":
            print(f"  {name}: {why}")
    kept = counts["unchanged"] + counts["named"]
    print(f"{counts['unchanged']} of {total} round-trip unchanged; {counts['named']} more change only where a "
          f"warning names the field; {counts['silent']} change otherwise")
    print(f"of those, {sum(items.values())} hold a hosted tool's or other provider item: {items['unchanged']} "
          f"unchanged, {items['named']} changed only where warnings name it, {items['silent']} changed otherwise")
    # The gate: of every accepted request, 98% come back unchanged or changed only where a
    # warning says.
    print(f"{kept} of {total} ({kept / total:.1%}) unchanged or with every change named")
    if kept < 0.98 * total:
        sys.exit("under 98% of the accepted captured requests round-trip unchanged or with every change named")

if __name__ == "__main__":
    main()
