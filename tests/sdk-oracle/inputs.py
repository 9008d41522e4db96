"""The inputs the oracle checks, and their bodies from the real converter (the `agent-input` CLI).

Two sources of inputs:
- every case of `tests/fixtures/*.json` whose input is valid, converted for all five providers
  with no options and with each option set the case's own `convert` entries give;
- `generated(count, seed)`: valid standard inputs of every form, block type, format and source,
  with conversation shapes and options, deterministic for a seed.
"""

from __future__ import annotations

import base64
import json
import random
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

PROVIDERS = ("bedrock-converse", "openai-chat", "openai-responses", "anthropic-messages", "gemini")

# `{{base64 KIND N}}` payloads (tests/README.md, "Generated payloads").
SIGNATURES = {
    "png": b"\x89PNG\r\n\x1a\n",
    "jpeg": b"\xff\xd8\xff\xe0",
    "gif": b"GIF89a",
    "webp": b"RIFF\0\0\0\0WEBP",
    "pdf": b"%PDF-1.7\n",
    "mp4": b"\0\0\0\0ftypisom",
    "zero": b"",
}


@dataclass
class Job:
    """One conversion: an input (request text) for one provider with one option set."""

    case: str  # `file/case name` or `generated/NNNN`, plus `#k` for the k-th option set
    provider: str
    text: str
    bare: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    limits: dict[str, int] = field(default_factory=dict)


@dataclass
class Outcome:
    """What the converter made of a job: a body, or the error codes it refused with."""

    job: Job
    body: Any = None
    errors: list[str] = field(default_factory=list)


def _payload(text: str) -> str | None:
    if not (text.startswith("{{base64 ") and text.endswith("}}")):
        return None
    kind, n = text[len("{{base64 ") : -2].split(" ", 1)
    data = SIGNATURES[kind]
    return base64.b64encode(data + b"\0" * (int(n) - len(data))).decode()


def _expand(value: Any) -> Any:
    if isinstance(value, str):
        payload = _payload(value)
        return value if payload is None else payload
    if isinstance(value, list):
        return [_expand(v) for v in value]
    if isinstance(value, dict):
        return {k: _expand(v) for k, v in value.items()}
    return value


def _load_exact(path: Path) -> Any:
    """Loads a fixture file, refusing numbers Python cannot write back unchanged (the CLI gets
    the request as Python writes it)."""

    def exact_float(text: str) -> float:
        number = float(text)
        if Decimal(text) != Decimal(repr(number)):
            raise ValueError(f"{path}: the number {text} does not survive a round trip")
        return number

    return json.loads(path.read_text(encoding="utf-8"), parse_float=exact_float)


@dataclass
class FixtureInputs:
    jobs: list[Job]
    invalid_cases: int  # cases whose input is invalid with every option set: nothing to convert
    ml_commons_sets: int  # option sets in ml-commons parity mode: the body is ml-commons' own


def fixture_jobs(fixtures: Path) -> FixtureInputs:
    """Every fixture case, for every provider, with no options and with each distinct option set
    of its `convert` entries. Of an invalid case only the option sets with `allow_prefill`: a
    conversation ending with the assistant is invalid by default and valid with it."""
    jobs: list[Job] = []
    invalid = ml_commons = 0
    for path in sorted(fixtures.glob("*.json")):
        for case in _load_exact(path)["cases"]:
            name = f"{path.stem}/{case['name']}"
            valid = case["expect"]["valid"]
            option_sets: list[dict[str, Any]] = [{}] if valid else []
            for entry in case["expect"].get("convert", {}).values():
                options = entry.get("options", {})
                if options.get("ml_commons"):
                    ml_commons += 1
                elif options not in option_sets and (valid or options.get("allow_prefill") is True):
                    option_sets.append(options)
            if not option_sets:
                invalid += 1
                continue
            if "raw" in case:
                text, bare = case["raw"], False
            elif "bare" in case:
                text, bare = json.dumps(_expand(case["bare"])), True
            else:
                text, bare = json.dumps(_expand(case["request"])), False
            for k, options in enumerate(option_sets, start=0 if valid else 1):
                label = f"{name}#{k}" if options else name
                for provider in PROVIDERS:
                    jobs.append(Job(label, provider, text, bare, options, case.get("limits", {})))
    return FixtureInputs(jobs, invalid, ml_commons)


# --- Generated inputs -------------------------------------------------------------------------

IMAGE_FORMATS = ["png", "jpeg", "gif", "webp"]
VIDEO_FORMATS = ["mkv", "mov", "mp4", "webm", "flv", "mpeg", "mpg", "wmv", "three_gp"]
DOCUMENT_FORMATS = ["pdf", "csv", "doc", "docx", "xls", "xlsx", "html", "txt", "md"]

# Bytes each format's content begins with (contract §3.4 checks the known signatures).
MEDIA_BYTES = {
    "png": SIGNATURES["png"],
    "jpeg": SIGNATURES["jpeg"],
    "gif": SIGNATURES["gif"],
    "webp": SIGNATURES["webp"],
    "mp4": SIGNATURES["mp4"],
    "mov": b"\0\0\0\x14ftypqt  ",
    "three_gp": b"\0\0\0\x14ftyp3gp4",
    "mkv": b"\x1a\x45\xdf\xa3",
    "webm": b"\x1a\x45\xdf\xa3",
    "flv": b"FLV\x01",
    "mpeg": b"\0\0\x01\xba",
    "mpg": b"\0\0\x01\xba",
    "wmv": b"\x30\x26\xb2\x75\x8e\x66\xcf\x11",
    "pdf": SIGNATURES["pdf"],
    "docx": b"PK\x03\x04",
    "xlsx": b"PK\x03\x04",
    "doc": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
    "xls": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
    "csv": b"city,temp\nSeattle,72\n",
    "html": b"<!doctype html><p>Hello</p>\n",
    "txt": "Plain text, caf\u00e9.\n".encode(),
    "md": b"# Title\n\n- item\n",
}

FORMAT_ALIASES = {"jpeg": "jpg", "three_gp": "3gp", "html": "htm", "md": "markdown"}
WORDS = [
    "weather",
    "Seattle",
    "picture",
    "report",
    "summary",
    "table",
    "chart",
    "invoice",
    "résumé",
    "東京",
    "naïve",
    "plan",
]
NAMES = ["Q3 report", "résumé (final) [v2]", "notes.md", "data_2024.csv", "Version 2.0", "报告", "a"]
# Structured-output settings the generator draws from: a bare schema, and every part given.
RESPONSE_FORMATS = [
    {"schema": {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}},
    {
        "schema": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
            "required": ["city", "celsius"],
            "additionalProperties": False,
        },
        "name": "weather_report",
        "description": "The weather in one city",
        "strict": True,
    },
]

TOOLS = [
    {
        "name": "get_weather",
        "description": "Weather for a city",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
    {
        "name": "search_docs",
        "description": "Search the docs",
        "input_schema": {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}},
    },
    {"name": "lookup-order", "input_schema": {"type": "object"}},
    {"name": "no_schema", "description": "A tool without a schema"},
]


class Generator:
    """Valid standard inputs and options, reproducible from a seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.calls = 0
        self.prefill = False
        self.portable = False

    def text(self) -> str:
        words = self.rng.choices(WORDS, k=self.rng.randint(1, 8))
        return " ".join(words) + self.rng.choice(["", "?", ".", "\nSecond line."])

    def source(self, fmt: str, kind: str) -> dict[str, Any]:
        rng = self.rng
        # Sometimes an alias or another letter case, which validation normalizes (§3.3).
        label = fmt
        if rng.random() < 0.15:
            label = rng.choice([FORMAT_ALIASES.get(fmt, fmt.upper()), fmt.upper()])
        roll = rng.random()
        if self.portable and (kind == "document" or roll < 0.5):
            roll = 0.0  # base64
        elif self.portable:
            roll = 0.7  # https
        if roll < 0.6:
            data = base64.b64encode(MEDIA_BYTES[fmt] + bytes(rng.randint(0, 24))).decode()
            # Sometimes a data: URL prefix or line breaks, which the bodies must not carry (§3.4).
            if kind == "image" and rng.random() < 0.15:
                data = f"data:image/{fmt};base64,{data}"
            elif rng.random() < 0.1:
                data = "\n".join(data[i : i + 8] for i in range(0, len(data), 8))
            return {"type": "base64", "format": label, "data": data}
        ext = "3gp" if fmt == "three_gp" else fmt
        n = rng.randint(1, 99)
        if roll < 0.8:
            return {"type": "url", "format": label, "data": f"https://example.com/{kind}/file{n}.{ext}"}
        return {"type": "url", "format": label, "data": f"s3://agent-input-bucket/{kind}/file{n}.{ext}"}

    def block(self, kinds: list[str]) -> dict[str, Any]:
        kind = self.rng.choice(kinds)
        if kind == "text":
            return {"type": "text", "text": self.text()}
        if self.portable:
            fmt = "pdf" if kind == "document" else self.rng.choice(IMAGE_FORMATS)
        else:
            fmt = self.rng.choice({"image": IMAGE_FORMATS, "video": VIDEO_FORMATS, "document": DOCUMENT_FORMATS}[kind])
        block: dict[str, Any] = {"type": kind, "source": self.source(fmt, kind)}
        if kind == "document" and self.rng.random() < 0.7:
            block["name"] = self.rng.choice(NAMES)
        return block

    def blocks(self, media: bool) -> list[dict[str, Any]]:
        kinds = ["text"]
        if media:
            kinds += ["image", "document"] if self.portable else ["image", "document", "video"]
        blocks = [{"type": "text", "text": self.text()}]  # a text first: documents need one (§6)
        blocks += [self.block(kinds) for _ in range(self.rng.randint(0, 3))]
        self.rng.shuffle(blocks)
        return blocks

    def tool_call(self, tools: list[dict[str, Any]]) -> dict[str, Any]:
        self.calls += 1
        tool = self.rng.choice(tools)
        args = {"city": self.rng.choice(["Seattle", "Tōkyō"])} if tool["name"] == "get_weather" else {}
        # Ids from other providers too (`call.1`, `tooluse:2`), which Anthropic's pattern refuses.
        n = self.calls
        call_id = self.rng.choice([f"call_{n}", f"tooluse-{n:04d}", f"c{n}", f"call_{n}", f"call.{n}", f"tooluse:{n}"])
        return {"id": call_id, "type": "function", "function": {"name": tool["name"], "arguments": json.dumps(args)}}

    def messages(self, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
        rng = self.rng
        out: list[dict[str, Any]] = []
        if rng.random() < 0.3:
            out.append({"role": "system", "content": [{"type": "text", "text": self.text()}]})
        if rng.random() < 0.05:
            out.append({"role": "developer", "content": [{"type": "text", "text": self.text()}]})
        for turn in range(rng.randint(1, 3)):
            out.append({"role": "user", "content": self.blocks(media=rng.random() < 0.5)})
            last_turn = turn > 0 and rng.random() < 0.4
            if last_turn:
                break
            if tools and rng.random() < 0.5:
                calls = [self.tool_call(tools) for _ in range(rng.randint(1, 2))]
                assistant: dict[str, Any] = {"role": "assistant", "content": [], "toolCalls": calls}
                if rng.random() < 0.5:
                    assistant["content"] = [{"type": "text", "text": self.text()}]
                out.append(assistant)
                for call in calls:
                    content = [{"type": "text", "text": self.text()}]
                    if rng.random() < 0.25:
                        content.append(self.block(["image", "document"]))
                    out.append({"role": "tool", "toolCallId": call["id"], "content": content})
                if rng.random() < 0.5:
                    return out  # ends with tool results
                out.append({"role": "assistant", "content": [{"type": "text", "text": self.text()}]})
            else:
                out.append({"role": "assistant", "content": [{"type": "text", "text": self.text()}]})
        if out[-1]["role"] == "assistant" and not self.prefill:
            out.append({"role": "user", "content": self.blocks(media=False)})
        return out

    def options(self, tools: list[dict[str, Any]]) -> dict[str, Any]:
        rng, options = self.rng, {}
        if self.prefill:
            options["allow_prefill"] = True
        if rng.random() < 0.4:
            options["system"] = self.text()
        if rng.random() < 0.4:
            options["temperature"] = rng.choice([0, 0.2, 0.7, 1])
        if rng.random() < 0.3:
            options["top_p"] = rng.choice([0.1, 0.9, 1])
        if rng.random() < 0.3:
            options["max_tokens"] = rng.choice([1, 256, 4096])
        if rng.random() < 0.2:
            options["stop_sequences"] = rng.sample(["END", "\n\nHuman:", "###", "STOP"], rng.randint(1, 3))
        if tools:
            options["tools"] = tools
            if rng.random() < 0.3:
                options["tool_choice"] = rng.choice(["auto", "any", "none", {"name": rng.choice(tools)["name"]}])
        if rng.random() < 0.15:
            options["prompt_cache"] = rng.choice([True, {"ttl": "5m"}, {"ttl": "1h"}])
        if rng.random() < 0.15:
            options["response_format"] = rng.choice(RESPONSE_FORMATS)
        return options

    def request(self) -> tuple[dict[str, Any], dict[str, Any]]:
        rng = self.rng
        # Some inputs keep to media most providers take (images, PDFs; base64 or https), so that
        # media reaches every provider's body and not only its refusals.
        self.portable = rng.random() < 0.4
        form = rng.choices(["text", "blocks", "messages", "legacy"], weights=[2, 4, 8, 1])[0]
        tools: list[dict[str, Any]] = []
        if form == "messages" or rng.random() < 0.2:
            tools = rng.sample(TOOLS, rng.randint(0, 3)) if rng.random() < 0.7 else []
        if form == "text":
            request: dict[str, Any] = {"input": self.text()}
        elif form == "legacy":
            request = {"parameters": {"question": self.text()}}
        elif form == "blocks":
            request = {"input": self.blocks(media=True)}
        else:
            # Sometimes a prefill: the conversation ends with assistant text for the model to continue.
            self.prefill = rng.random() < 0.08
            request = {"input": self.messages(tools)}
        options = self.options(tools)
        self.prefill = False
        return request, options


def generated_jobs(count: int, seed: int) -> list[Job]:
    """`count` generated inputs, each for every provider (five jobs per input, in order)."""
    gen = Generator(seed)
    jobs = []
    for i in range(count):
        request, options = gen.request()
        text = json.dumps(request, ensure_ascii=False)
        jobs += [Job(f"generated/{i:04d}", provider, text, options=options) for provider in PROVIDERS]
    return jobs


def invalid_inputs(cli: Path, jobs: list[Job], workers: int) -> list[tuple[Job, list[str]]]:
    """The jobs whose input the validator refuses, with the error codes (for generated inputs,
    which must all be valid)."""

    def one(job: Job) -> tuple[Job, list[str]]:
        args = [str(cli), "validate", "--compact"] + (["--allow-prefill"] if job.options.get("allow_prefill") else [])
        done = subprocess.run(args, input=job.text.encode(), capture_output=True, check=False)
        return job, [e["code"] for e in json.loads(done.stdout)["errors"]]

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return [(job, codes) for job, codes in pool.map(one, jobs) if codes]


# --- The converter ----------------------------------------------------------------------------


class UnrepresentableOptions(Exception):
    """Options the CLI takes no flags for (a negative or non-numeric number, say): its usage error."""


def _flags(options: dict[str, Any], tmp: Path) -> list[str]:
    """CLI flags for conversion options, by the CLI's convention: `top_p` is `--top-p=VALUE`, a
    list repeats the flag (`--stop-sequence` for `stop_sequences`), `true` is the bare flag, and
    anything holding objects (`tools`) goes in a JSON file named by the flag."""
    flags: list[str] = []
    for key, value in options.items():
        # The request features have flags of their own: `tool:NAME`, `--prompt-cache-ttl`, and
        # the response format's parts.
        if key == "tool_choice" and isinstance(value, dict) and set(value) == {"name"}:
            value = f"tool:{value['name']}"
        elif key == "prompt_cache" and isinstance(value, dict) and set(value) == {"ttl"}:
            flags.append(f"--prompt-cache-ttl={value['ttl']}")
            continue
        elif key == "prompt_cache" and isinstance(value, str):
            value = value.strip() == "true"
        elif key == "response_format" and isinstance(value, dict):
            for part, part_value in value.items():
                if part == "schema":
                    path = tmp / "response_schema.json"
                    path.write_text(json.dumps(part_value), encoding="utf-8")
                    flags.append(f"--response-schema={path}")
                else:
                    flags.append(f"--response-{part}={str(part_value).lower() if part == 'strict' else part_value}")
            continue
        flag = "--stop-sequence" if key == "stop_sequences" else "--" + key.replace("_", "-")
        scalars = isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value)
        if isinstance(value, bool):
            flags += [flag] if value else []
        elif isinstance(value, (str, int, float)):
            flags.append(f"{flag}={value}")
        elif scalars and key != "tools":
            flags += [f"{flag}={v}" for v in value]
        else:
            path = tmp / f"{key}.json"
            path.write_text(json.dumps(value), encoding="utf-8")
            flags.append(f"{flag}={path}")
    return flags


def convert(cli: Path, job: Job) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="sdk-oracle-") as tmp:
        args = [str(cli), "convert", f"--to={job.provider}", "--report", "--compact"]
        args += ["--bare"] if job.bare else []
        args += [f"--{key.replace('_', '-')}={value}" for key, value in job.limits.items()]
        args += _flags(job.options, Path(tmp))
        done = subprocess.run(args, input=job.text.encode(), capture_output=True, check=False)
    if done.returncode == 2:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        raise UnrepresentableOptions(lines[0] if lines else "usage error")
    report = json.loads(done.stdout)
    if report["ok"]:
        return Outcome(job, body=report["body"])
    return Outcome(job, errors=[e["code"] for e in report["errors"]])


def convert_all(cli: Path, jobs: list[Job], workers: int) -> tuple[list[Outcome], list[tuple[Job, str]]]:
    """Converts every job; returns the outcomes and the jobs whose options have no CLI flag."""
    unrepresentable: list[tuple[Job, str]] = []

    def one(job: Job) -> Outcome | None:
        try:
            return convert(cli, job)
        except UnrepresentableOptions as e:
            unrepresentable.append((job, str(e)))
            return None

    with ThreadPoolExecutor(max_workers=workers) as pool:
        outcomes = [o for o in pool.map(one, jobs) if o is not None]
    return outcomes, unrepresentable
