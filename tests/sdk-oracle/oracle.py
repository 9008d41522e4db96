"""The providers' own request definitions as strict validators of converted bodies.

- Bedrock Converse: botocore's `bedrock-runtime` service model, the `Converse` operation's input
  shape, walked member by member (structures, unions, lists, maps, enums, lengths, ranges,
  patterns).
- OpenAI Chat Completions, OpenAI Responses, Anthropic Messages: the SDKs' request `TypedDict`s
  (`CompletionCreateParamsNonStreaming`, `ResponseCreateParamsNonStreaming`,
  `MessageCreateParamsNonStreaming`), validated by pydantic in strict mode with unknown keys
  forbidden.
- Gemini: the REST `GenerateContentRequest` assembled from google-genai's own pydantic models
  (`Content`, `GenerationConfig`, `Tool`, `ToolConfig`, `SafetySetting`), camelCase aliases,
  unknown keys forbidden, strict.

Every problem is a `Problem(path, kind, detail)`: `path` a JSON Pointer into the body, `kind` one
of the stable words in `KINDS`.
"""

from __future__ import annotations

import base64
import binascii
import collections.abc
import enum
import importlib
import json
import pkgutil
import re
import sys
import typing
import warnings
from dataclasses import dataclass
from typing import Any

KINDS = (
    "unknown_key",  # a key the definition does not have
    "missing_key",  # a required key absent
    "wrong_literal",  # a value outside a literal or enum
    "wrong_type",  # a value of the wrong JSON type
    "union_members",  # a Bedrock union with no member or more than one set
    "too_short",  # a string, list or blob under the stated minimum length
    "too_long",
    "out_of_range",  # a number outside the stated range
    "pattern_mismatch",  # a string not matching the stated pattern
    "invalid_base64",  # a blob that is not base64
)

# Added before checking: the gateway puts the model into OpenAI and Anthropic bodies.
PLACEHOLDER_MODEL = "sdk-oracle-model"


@dataclass(frozen=True)
class Problem:
    path: str
    kind: str
    detail: str


def pointer(segments: typing.Iterable[str | int]) -> str:
    return "".join("/" + str(s).replace("~", "~0").replace("/", "~1") for s in segments)


# --- Bedrock Converse (botocore) --------------------------------------------------------------


class Bedrock:
    """The `Converse` input shape of botocore's `bedrock-runtime` model."""

    name = "bedrock-converse"

    def __init__(self) -> None:
        import botocore.session

        model = botocore.session.Session().get_service_model("bedrock-runtime")
        self.shape = model.operation_model("Converse").input_shape
        self.patterns: dict[str, re.Pattern[str]] = {}

    def check(self, body: Any) -> list[Problem]:
        problems: list[Problem] = []
        self._walk(self.shape, body, [], problems, top=True)
        return problems

    def _walk(self, shape: Any, value: Any, path: list[str | int], out: list[Problem], top: bool = False) -> None:
        def problem(kind: str, detail: str, at: list[str | int] = path) -> None:
            out.append(Problem(pointer(at), kind, f"{detail} [{shape.name}]"))

        kind = shape.type_name
        if kind == "structure" and shape.metadata.get("document"):
            return  # a Smithy document: any JSON
        if kind == "structure":
            if not isinstance(value, dict):
                return problem("wrong_type", f"expected an object, got {_json_type(value)}")
            # Members bound to the URI, headers or query string are not part of the body.
            members = {
                member.serialization.get("name", name): member
                for name, member in shape.members.items()
                if not member.serialization.get("location")
            }
            required = [
                shape.members[name].serialization.get("name", name)
                for name in shape.required_members
                if not shape.members[name].serialization.get("location")
            ]
            for key in value:
                if key not in members:
                    problem("unknown_key", f"'{key}' is not a member; members: {', '.join(members)}", path + [key])
            for key in required:
                if key not in value:
                    problem("missing_key", f"'{key}' is required", path + [key])
            if shape.metadata.get("union"):
                present = [key for key in value if key in members and value[key] is not None]
                if len(present) != 1:
                    problem("union_members", f"exactly one member must be set, found {len(present)}: {present}")
            for key, item in value.items():
                if key in members:
                    self._walk(members[key], item, path + [key], out)
        elif kind == "list":
            if not isinstance(value, list):
                return problem("wrong_type", f"expected an array, got {_json_type(value)}")
            self._length(shape, len(value), "items", problem)
            for i, item in enumerate(value):
                self._walk(shape.member, item, path + [i], out)
        elif kind == "map":
            if not isinstance(value, dict):
                return problem("wrong_type", f"expected an object, got {_json_type(value)}")
            self._length(shape, len(value), "entries", problem)
            for key, item in value.items():
                self._walk(shape.key, key, path + [key], out)
                self._walk(shape.value, item, path + [key], out)
        elif kind == "string":
            if not isinstance(value, str):
                return problem("wrong_type", f"expected a string, got {_json_type(value)}")
            if shape.enum and value not in shape.enum:
                problem("wrong_literal", f"'{value}' is not one of {shape.enum}")
            self._length(shape, len(value), "characters", problem)
            pattern = shape.metadata.get("pattern")
            if pattern is not None and not self._pattern(pattern).fullmatch(value):
                problem("pattern_mismatch", f"'{value[:60]}' does not match {pattern[:80]}")
        elif kind in ("integer", "long"):
            if not isinstance(value, int) or isinstance(value, bool):
                return problem("wrong_type", f"expected an integer, got {_json_type(value)}")
            self._range(shape, value, problem)
        elif kind in ("float", "double"):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                return problem("wrong_type", f"expected a number, got {_json_type(value)}")
            self._range(shape, value, problem)
        elif kind == "boolean":
            if not isinstance(value, bool):
                return problem("wrong_type", f"expected a boolean, got {_json_type(value)}")
        elif kind == "blob":
            # rest-json carries blobs as standard base64 text.
            if not isinstance(value, str):
                return problem("wrong_type", f"expected base64 text, got {_json_type(value)}")
            try:
                data = base64.b64decode(value, validate=True)
            except binascii.Error as e:
                return problem("invalid_base64", str(e))
            self._length(shape, len(data), "bytes", problem)
        else:
            problem("wrong_type", f"the checker does not know shape type '{kind}'")

    @staticmethod
    def _length(shape: Any, n: int, unit: str, problem: Any) -> None:
        low, high = shape.metadata.get("min"), shape.metadata.get("max")
        if low is not None and n < low:
            problem("too_short", f"{n} {unit}, at least {low}")
        if high is not None and n > high:
            problem("too_long", f"{n} {unit}, at most {high}")

    @staticmethod
    def _range(shape: Any, n: float, problem: Any) -> None:
        low, high = shape.metadata.get("min"), shape.metadata.get("max")
        if (low is not None and n < low) or (high is not None and n > high):
            problem("out_of_range", f"{n} is outside [{low}, {high}]")

    def _pattern(self, pattern: str) -> re.Pattern[str]:
        # Smithy calls its patterns unanchored, but AWS services match them against the whole
        # value: a tool name 'Complete Session' fails `[a-zA-Z0-9_-]+` although parts of it match.
        if pattern not in self.patterns:
            self.patterns[pattern] = re.compile(pattern)
        return self.patterns[pattern]


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


# --- pydantic-based definitions ---------------------------------------------------------------

PYDANTIC_KINDS = {
    "extra_forbidden": "unknown_key",
    "missing": "missing_key",
    "literal_error": "wrong_literal",
    "enum": "wrong_literal",
    "string_too_short": "too_short",
    "too_short": "too_short",
    "bytes_too_short": "too_short",
    "string_too_long": "too_long",
    "too_long": "too_long",
    "bytes_too_long": "too_long",
    "greater_than": "out_of_range",
    "greater_than_equal": "out_of_range",
    "less_than": "out_of_range",
    "less_than_equal": "out_of_range",
    "string_pattern_mismatch": "pattern_mismatch",
    "base64_decode": "invalid_base64",
    "bytes_invalid_encoding": "invalid_base64",
}


def _kind(error_type: str) -> str:
    if error_type in PYDANTIC_KINDS:
        return PYDANTIC_KINDS[error_type]
    if error_type.endswith("_type") or error_type in ("none_required", "is_instance_of", "model_attributes_type"):
        return "wrong_type"
    return error_type  # not in KINDS: shown as pydantic names it


def problems_from_pydantic(errors: list[dict[str, Any]], data: Any, skip: int = 0) -> list[Problem]:
    """Turns pydantic's errors into problems, keeping one alternative per union.

    pydantic reports a failed union with the errors of every member, each `loc` naming the member
    (`..., 'ChatCompletionUserMessageParam', 'content', ...`). Such tag segments are told from keys
    by walking the data; at each union one member is kept, the one the body was evidently written
    as: whose errors reach deepest into the data, then with the fewest wrong literals (a `type` or
    `role` that names another member), then with the fewest errors.
    """
    items = []
    for error in errors:
        items.append((_classify(error["loc"][skip:], data, error["type"]), error))
    out = []
    for segments, error in _condense(items, 0):
        keys = [value for is_key, value in segments if is_key]
        members = [str(value) for is_key, value in segments if not is_key and re.fullmatch(r"\w+", str(value))]
        via = f" [{' > '.join(members)}]" if members else ""
        out.append(Problem(pointer(keys), _kind(error["type"]), f"{error['msg']}{via}"))
    return out


def _classify(loc: tuple[Any, ...], data: Any, error_type: str) -> list[tuple[bool, Any]]:
    segments: list[tuple[bool, Any]] = []
    value = data
    for i, seg in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(value, dict) and isinstance(seg, str) and (seg in value or (last and error_type == "missing")):
            segments.append((True, seg))
            value = value.get(seg)
        elif isinstance(value, list) and isinstance(seg, int) and 0 <= seg < len(value):
            segments.append((True, seg))
            value = value[seg]
        else:
            segments.append((False, seg))
    return segments


def _condense(items: list[tuple[list[tuple[bool, Any]], Any]], level: int) -> list[tuple[list[tuple[bool, Any]], Any]]:
    out = [item for item in items if len(item[0]) == level]
    keys: dict[Any, list[Any]] = {}
    members: dict[Any, list[Any]] = {}
    for item in items:
        if len(item[0]) > level:
            is_key, seg = item[0][level]
            (keys if is_key else members).setdefault(seg, []).append(item)
    for group in keys.values():
        out += _condense(group, level + 1)
    best: tuple[tuple[int, int, int], list[Any]] | None = None
    for group in members.values():
        condensed = _condense(group, level + 1)
        depth = max(sum(1 for is_key, _ in segments if is_key) for segments, _ in condensed)
        literals = sum(1 for _, error in condensed if _kind(error["type"]) == "wrong_literal")
        score = (depth, -literals, -len(condensed))
        if best is None or score > best[0]:
            best = (score, condensed)
    if best is not None:
        out += best[1]
    return out


def _list_iterables(packages: list[str]) -> int:
    """Makes the SDKs' `Iterable[...]` request fields eager lists for pydantic.

    The SDKs type request lists as `Iterable` so callers may pass generators; pydantic then
    validates them lazily, only when iterated, and a union takes any list without looking inside.
    The type modules use postponed annotations, so rebinding the module-level name `Iterable`
    before the adapters are built makes pydantic read those fields as `List`.
    """
    for package in packages:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            importlib.import_module(info.name)
    roots = {package.split(".")[0] for package in packages}
    rebound = 0
    for name, module in list(sys.modules.items()):
        in_sdk = name.split(".")[0] in roots and ".types" in name
        if in_sdk and getattr(module, "Iterable", None) in (typing.Iterable, collections.abc.Iterable):
            module.Iterable = list  # type: ignore[attr-defined]
            rebound += 1
    return rebound


def _check_no_aliases(root: Any) -> None:
    """The wire key of a field with `PropertyInfo(alias=...)` differs from its Python name, and
    pydantic does not know that; refuse to check such a definition rather than misjudge it."""
    seen: set[int] = set()

    def visit(tp: Any) -> None:
        if id(tp) in seen:
            return
        seen.add(id(tp))
        if typing.is_typeddict(tp):
            for field, hint in typing.get_type_hints(tp, include_extras=True).items():
                for meta in getattr(hint, "__metadata__", ()):
                    if getattr(meta, "alias", None):
                        raise RuntimeError(f"{tp.__name__}.{field} has the wire alias {meta.alias!r}")
                visit(hint)
            return
        for arg in typing.get_args(tp):
            visit(arg)

    visit(root)


class SdkTypedDict:
    """A request `TypedDict` of the openai or anthropic SDK, strict, unknown keys forbidden."""

    def __init__(self, name: str, definition: Any) -> None:
        from pydantic import ConfigDict, TypeAdapter

        self.name = name
        _check_no_aliases(definition)
        # A TypedDict takes no config of its own through TypeAdapter; inside a list the config
        # applies to it and every nested TypedDict.
        self.adapter = TypeAdapter(list[definition], config=ConfigDict(extra="forbid", strict=True))

    def check(self, body: Any) -> list[Problem]:
        from pydantic import ValidationError

        data = dict(body, model=PLACEHOLDER_MODEL) if isinstance(body, dict) and "model" not in body else body
        try:
            self.adapter.validate_json(json.dumps([data]))
        except ValidationError as e:
            return problems_from_pydantic(e.errors(), data, skip=1)
        return []


class Gemini:
    """The REST `GenerateContentRequest` from google-genai's models.

    The SDK's own `_GenerateContentParameters` is private and its unions take conveniences the
    REST API does not (a string or a PIL image as contents; it converts them before sending), so
    the body is checked against the wire request those parameters are turned into, built from
    the same SDK models the SDK builds it from.
    """

    name = "gemini"

    def __init__(self) -> None:
        from google.genai import _common, types

        class GenerateContentRequest(_common.BaseModel):  # type: ignore[misc, name-defined]
            contents: list[types.Content]
            system_instruction: types.Content | None = None
            generation_config: types.GenerationConfig | None = None
            tools: list[types.Tool] | None = None
            tool_config: types.ToolConfig | None = None
            safety_settings: list[types.SafetySetting] | None = None
            cached_content: str | None = None

        GenerateContentRequest.model_rebuild(_types_namespace={"types": types})
        self.model = GenerateContentRequest

    def check(self, body: Any) -> list[Problem]:
        from pydantic import ValidationError

        # The SDK's enums take unknown values with a warning (forward compatibility); the API
        # does not, so each is a wrong literal.
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            try:
                request = self.model.model_validate_json(json.dumps(body), strict=True)
            except ValidationError as e:
                problems = problems_from_pydantic(e.errors(), body)
                return problems + [Problem("", "wrong_literal", str(w.message)) for w in warned if _enum_warning(w)]
        return list(_unknown_enum_values(request, []))


def _enum_warning(warning: warnings.WarningMessage) -> bool:
    return " is not a valid " in str(warning.message)


def _unknown_enum_values(value: Any, path: list[str | int]) -> typing.Iterator[Problem]:
    """Enum values in a validated google-genai model that are not members of their enum."""
    from pydantic import BaseModel

    if isinstance(value, enum.Enum):
        if value not in type(value).__members__.values():
            members = ", ".join(m.value for m in type(value).__members__.values())
            yield Problem(
                pointer(path), "wrong_literal", f"'{value.value}' is not one of {members} [{type(value).__name__}]"
            )
    elif isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            if name in value.model_fields_set:
                yield from _unknown_enum_values(getattr(value, name), path + [info.alias or name])
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _unknown_enum_values(item, path + [i])
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _unknown_enum_values(item, path + [key])


def oracles() -> dict[str, Any]:
    """One validator per provider id."""
    packages = ["openai.types.chat", "openai.types.responses", "openai.types.shared_params", "anthropic.types"]
    rebound = _list_iterables(packages)
    if rebound == 0:
        raise RuntimeError("no Iterable field annotations found: the SDK layout changed; review _list_iterables")
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    return {
        "bedrock-converse": Bedrock(),
        "openai-chat": SdkTypedDict("openai-chat", CompletionCreateParamsNonStreaming),
        "openai-responses": SdkTypedDict("openai-responses", ResponseCreateParamsNonStreaming),
        "anthropic-messages": SdkTypedDict("anthropic-messages", MessageCreateParamsNonStreaming),
        "gemini": Gemini(),
    }
