#!/usr/bin/env python3
"""Writes tests/fixtures/agent_schema.json: the agent input schema cases (contract §8).

The expectations come from the autonomous-agent runner's own Python (its coordinator merges the
schema, its runner formats the inputs), copied verbatim below
(`_merge_autonomous_schema_with_prompt`, `format_autonomous_inputs`), and from Python's
`jsonschema` (what that runner's coordinator validates with), never from this project's code.
Two project decisions are applied on top (docs/decisions/schemas.md): a missing (`required`) or
disallowed (`additionalProperties`) parameter is reported at the key's own path, one error per key;
and a violation of a prompt taken from the input points at the input.

Run: python3 scripts/gen-schema-fixtures.py [--check]   (needs jsonschema, pinned and installed by
scripts/setup; --check only compares with the committed file, as scripts/test does)
"""

import copy
import json
import pathlib
import re
import sys

import jsonschema


# --- the runner's Python, verbatim---------------------------------------------------------------
def _merge_autonomous_schema_with_prompt(custom_schema: dict) -> dict:
    """
    Merge custom parameters_schema with prompt requirement for autonomous agents.
    """
    merged = copy.deepcopy(custom_schema)

    # Ensure type is object
    if merged.get("type") != "object":
        merged["type"] = "object"

    # Add prompt property if not present
    if "properties" not in merged:
        merged["properties"] = {}
    if "prompt" not in merged["properties"]:
        merged["properties"]["prompt"] = {"type": "string", "minLength": 1}

    # Ensure prompt is in required list
    required = merged.get("required", [])
    if "prompt" not in required:
        merged["required"] = list(required) + ["prompt"]

    return merged


def format_autonomous_inputs(parameters: dict) -> str:
    """
    Format parameters for autonomous agents into a prompt string.
    """
    prompt = parameters["prompt"]
    additional_params = {k: v for k, v in parameters.items() if k != "prompt"}

    # If no additional params, return prompt as-is
    if not additional_params:
        return prompt

    # Format as <inputs> block
    lines = ["<inputs>"]
    for key, value in additional_params.items():
        if isinstance(value, str):
            if "\n" in value:
                lines.append(f"{key}:")
                for line in value.split("\n"):
                    lines.append(f"  {line}")
            else:
                lines.append(f"{key}: {value}")
        elif isinstance(value, (list, dict)):
            lines.append(f"{key}: {json.dumps(value)}")
        else:
            lines.append(f"{key}: {value}")
    lines.append("</inputs>")
    lines.append("")

    return "\n".join(lines) + "\n" + prompt
# ------------------------------------------------------------------------------------------------

CONTROL = {"memory_id", "parent_interaction_id", "message_history_limit", "selected_tools", "verbose",
           "question", "system_prompt"}


def java_trim(s):
    i, j = 0, len(s)
    while i < j and ord(s[i]) <= 0x20:
        i += 1
    while j > i and ord(s[j - 1]) <= 0x20:
        j -= 1
    return s[i:j]


def question(request):
    """contract §5 for the input forms these cases use (text, content blocks, legacy question)."""
    if "input" not in request:
        if "question" in request["parameters"]:
            return request["parameters"]["question"], "/parameters/question"
        # The prompt-only request: no input, the prompt in parameters (valid under a schema).
        return request["parameters"]["prompt"], "/parameters/prompt"
    value = request["input"]
    if isinstance(value, str):
        return value, "/input"
    out = ""
    for block in value:
        if block["type"] == "text" and java_trim(block["text"]):
            out += java_trim(block["text"]) + "\n"
    return out, "/input"


def pointer(parts):
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def expectations(schema, request):
    if not isinstance(schema, dict):
        return {"valid": False, "errors": [{"code": "invalid_schema", "path": ""}]}
    meta = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA,
                                           format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    schema_errors = [{"code": "invalid_schema", "path": pointer(e.absolute_path)} for e in meta.iter_errors(schema)]
    if schema_errors:
        return {"valid": False, "errors": schema_errors}
    merged = _merge_autonomous_schema_with_prompt(schema)
    params = {k: v for k, v in request.get("parameters", {}).items() if k not in CONTROL}
    prompt_path = "/parameters/prompt"
    if "prompt" not in params:
        params["prompt"], prompt_path = question(request)

    def request_path(parts):
        parts = list(parts)
        if parts and parts[0] == "prompt":
            return prompt_path + pointer(parts[1:])
        return "/parameters" + pointer(parts)

    errors = []
    for e in jsonschema.Draft202012Validator(merged).iter_errors(params):
        base = list(e.absolute_path)
        item = {"code": "schema_violation", "schema_path": pointer(e.absolute_schema_path)}
        if e.validator == "required":
            missing = e.message.split("'")[1]
            errors.append({**item, "path": request_path(base + [missing])})
        elif e.validator == "additionalProperties":
            defined = set(e.schema.get("properties", {}))
            patterns = list(e.schema.get("patternProperties", {}))
            for key in e.instance:
                if key not in defined and not any(re.search(p, key) for p in patterns):
                    errors.append({**item, "path": request_path(base + [key])})
        else:
            if e.validator == "enum":
                item["expected"] = [v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))
                                    for v in e.validator_value]
            errors.append({**item, "path": request_path(base)})
    if errors:
        return {"valid": False, "input_type": "TEXT" if isinstance(request.get("input", ""), str)
                else "CONTENT_BLOCKS", "errors": errors}
    # contract §3: a string (or the legacy parameters.question) is text; these cases' arrays are blocks.
    input_type = "TEXT" if isinstance(request.get("input", ""), str) else "CONTENT_BLOCKS"
    expect = {"valid": True, "input_type": input_type, "question": question(request)[0],
              "formatted_prompt": format_autonomous_inputs(params)}
    if "input" in request and "question" in request.get("parameters", {}):
        expect["warnings"] = [{"code": "question_ignored", "path": "/parameters/question"}]  # contract §2
    return expect


SEED = {
    "type": "object",
    "required": ["topic", "format"],
    "properties": {
        "topic": {"type": "string", "description": "The main topic to write about"},
        "format": {"type": "string", "enum": ["summary", "bullet_points", "essay"], "description": "Output format"},
        "max_words": {"type": "integer", "minimum": 50, "maximum": 2000, "description": "Maximum word count"},
    },
    "additionalProperties": False,
}
AUDIENCE = copy.deepcopy(SEED)
AUDIENCE["properties"]["audience"] = {"type": "array", "items": {"type": "string"}, "description": "Who reads it"}
OPEN = {"type": "object", "properties": {}}

CASES = [
    ("example: topic, format, max_words", SEED,
     {"input": "Create content.", "parameters": {"topic": "AI Safety", "format": "summary", "max_words": 200}}),
    ("API example with the prompt in parameters", SEED,
     {"input": "ignored question", "parameters": {"prompt": "Create content about this topic.",
      "topic": "Machine Learning in Healthcare", "format": "bullet_points", "max_words": 300}}),
    ("example validation error: format not in enum", SEED,
     {"input": "Write.", "parameters": {"topic": "AI", "format": "invalid"}}),
    ("required parameters missing, one error each", SEED, {"input": "Write."}),
    ("every violation at once", SEED,
     {"input": "Write.", "parameters": {"format": "poem", "max_words": 10, "tone": "dry"}}),
    ("max_words above maximum", SEED, {"input": "Write.", "parameters": {"topic": "AI", "format": "essay", "max_words": 5000}}),
    ("max_words of the wrong type", SEED, {"input": "Write.", "parameters": {"topic": "AI", "format": "essay", "max_words": "300"}}),
    ("a whole float is an integer", SEED, {"input": "Write.", "parameters": {"topic": "AI", "format": "essay", "max_words": 300.0}}),
    ("audience list rendered as json.dumps", AUDIENCE,
     {"input": "Write.", "parameters": {"topic": "AI", "format": "summary", "audience": ["engineers", "managers"]}}),
    ("audience item of the wrong type", AUDIENCE,
     {"input": "Write.", "parameters": {"topic": "AI", "format": "summary", "audience": ["engineers", 7]}}),
    ("audience not allowed without the property", SEED,
     {"input": "Write.", "parameters": {"topic": "AI", "format": "summary", "audience": ["engineers"]}}),
    ("control parameters are neither validated nor formatted", SEED,
     {"input": "Write.", "parameters": {"topic": "AI", "format": "summary", "memory_id": "m1",
      "parent_interaction_id": "p1", "message_history_limit": "5", "selected_tools": ["a"], "verbose": True,
      "system_prompt": "Be brief.", "question": "ignored"}}),
    ("prompt alone is returned unchanged", OPEN, {"input": "Just the prompt."}),
    ("empty schema still requires a non-empty prompt", {}, {"input": "Hi", "parameters": {"prompt": ""}}),
    ("prompt of the wrong type", {}, {"input": "Hi", "parameters": {"prompt": 5}}),
    ("the prompt-only request: parameters.prompt and no input", SEED,
     {"parameters": {"prompt": "Create content about this topic.", "topic": "Machine Learning in Healthcare",
      "format": "bullet_points", "max_words": 300}}),
    ("prompt-only request with a violation", SEED,
     {"parameters": {"prompt": "Write.", "topic": "AI", "format": "poem"}}),
    ("prompt-only request with a blank prompt", {}, {"parameters": {"prompt": ""}}),
    ("prompt-only request, the prompt alone", OPEN, {"parameters": {"prompt": "Just the prompt."}}),
    ("legacy question is the prompt", SEED, {"parameters": {"question": "Legacy question.", "topic": "AI", "format": "essay"}}),
    ("content blocks: the extracted question is the prompt", OPEN,
     {"input": [{"type": "text", "text": " First. "}, {"type": "text", "text": "Second."}],
      "parameters": {"tone": "dry"}}),
    ("content blocks without text: the empty prompt points at the input", OPEN,
     {"input": [{"type": "image", "source": {"type": "url", "format": "png", "data": "s3://bucket-a/cat.png"}}],
      "parameters": {"tone": "dry"}}),
    ("a schema's own prompt property is kept", {"properties": {"prompt": {"type": "string", "maxLength": 5}}},
     {"input": "Too long a prompt"}),
    ("a non-object type is forced to object", {"type": "string", "properties": {"n": {"type": "integer"}}},
     {"input": "Count.", "parameters": {"n": 3}}),
    ("required without prompt gets prompt appended", {"required": ["n"], "properties": {"n": {"type": "integer"}}},
     {"input": "Count.", "parameters": {"n": 3}}),
    ("multi-line strings are indented", OPEN,
     {"input": "Summarize.", "parameters": {"notes": "line one\n\nline three\r\nlast", "single": "one line"}}),
    ("scalars as Python writes them", OPEN,
     {"input": "Go.", "parameters": {"draft": True, "final": False, "note": None, "ratio": 0.5, "big": 1e16,
      "almost_big": 1e15, "small": 0.00001, "tiny": 0.0001, "whole": 100.0, "neg": -3, "exp": 1.5e-7,
      "huge": 1.2345678e+300, "neg_float": -2.75}}),
    ("lists and objects as json.dumps with ensure_ascii", OPEN,
     {"input": "Go.", "parameters": {"meta": {"tags": ["caf\u00e9", "\U0001F600", "a\"b\\c", "tab\tnew\nline",
      "\u007f\u0001"], "n": 1.5, "ok": True, "none": None, "nested": {"k": [1, 2.0, []]}}, "empty_list": [],
      "empty_object": {}}}),
    ("parameter order is kept and prompt is taken out", OPEN,
     {"input": "Q", "parameters": {"b": 1, "prompt": "The prompt.", "a": 2}}),
    ("non-ASCII scalar strings are written as they are", OPEN,
     {"input": "Go.", "parameters": {"city": "M\u00fcnchen \U0001F600"}}),
    ("invalid schema: unknown type name", {"type": "object", "properties": {"max_words": {"type": "integr"}}},
     {"input": "Write."}),
    ("invalid schema: required is not a list", {"required": "topic"}, {"input": "Write."}),
    ("invalid schema: not an object", ["topic", "format"], {"input": "Write."}),
    ("invalid schema: a pattern that is not a regular expression",
     {"properties": {"code": {"type": "string", "pattern": "("}}}, {"input": "Write."}),
    # Regular expressions are ECMA-262's (the npm module runs them on JavaScript's RegExp); these
    # mean the same in Python's `re`.
    ("pattern with a lookahead", {"properties": {"user": {"type": "string", "pattern": "^(?!admin)[a-z]+$"}}},
     {"input": "Go.", "parameters": {"user": "admin"}}),
    ("pattern with a lookahead, matched", {"properties": {"user": {"type": "string", "pattern": "^(?!admin)[a-z]+$"}}},
     {"input": "Go.", "parameters": {"user": "bob"}}),
    ("patternProperties, and additionalProperties for the rest",
     {"patternProperties": {"^x-[a-z]+$": {"type": "string"}}, "properties": {"prompt": {"type": "string"}},
      "additionalProperties": False},
     {"input": "Go.", "parameters": {"x-team": 5, "x-lead": "Ann", "X-other": "no"}}),
    ("a $ref is followed, and its path goes through it",
     {"$defs": {"word": {"type": "string", "minLength": 2}}, "properties": {"tone": {"$ref": "#/$defs/word"}}},
     {"input": "Go.", "parameters": {"tone": "a"}}),
    ("anyOf is one error", {"properties": {"n": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}},
     {"input": "Go.", "parameters": {"n": []}}),
    ("invalid schema: a patternProperties name that is not a regular expression",
     {"patternProperties": {"[": {"type": "string"}}}, {"input": "Write."}),
]


def main():
    cases = []
    for name, schema, request in CASES:
        cases.append({"name": name, "spec": "§8 agent input schemas", "schema": schema, "request": request,
                      "expect": expectations(schema, request)})
    # A request that is itself invalid is reported as such; its parameters are not checked.
    cases.append({"name": "an invalid request is not checked against the schema", "spec": "§8", "schema": SEED,
                  "request": {"parameters": {"topic": 5}},
                  "expect": {"valid": False, "input_type": None, "errors": [{"code": "missing_input", "path": ""}]}})
    out = {"description": "Agent input schemas (contract §8): parameters validated against an agent's "
                          "parameters_schema merged with the prompt, and the <inputs> block. Generated by "
                          "scripts/gen-schema-fixtures.py from the runner's Python and Python's jsonschema.",
           "cases": cases}
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "agent_schema.json"
    text = json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    if "--check" in sys.argv[1:]:
        if path.read_text(encoding="utf-8") != text:
            sys.exit(f"{path} differs from what scripts/gen-schema-fixtures.py writes")
        return
    path.write_text(text, encoding="utf-8")
    print(f"{path}: {len(cases)} cases")


if __name__ == "__main__":
    main()
