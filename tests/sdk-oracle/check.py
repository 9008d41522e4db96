"""Checks every converted body against the providers' own pinned request definitions.

Converts every valid fixture case and a seeded set of generated inputs for all five providers
with the `agent-input` CLI, validates each body strictly (oracle.py), and compares the problems
with the expected ones in known.json. Fails on a problem not listed there and on a listed entry
that no longer occurs. Starts with a self-test (selftest.json): hand-written bodies the oracle
must accept or refuse exactly as stated.

    target/sdk-oracle/venv/bin/python tests/sdk-oracle/check.py --cli target/debug/agent-input

Ends with one line `N passed, N failed`; exit status 0 when nothing failed.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import inputs
import oracle

# What the run leaves out, pinned as the other fixture runners pin theirs (tests/README.md): a new
# case of either kind fails until it is looked at and the count raised on purpose.
ML_COMMONS_OPTION_SETS = 17  # parity mode builds ml-commons' own body, not this project's
UNFLAGGED_OPTION_SETS = 3  # options the CLI takes no flags for: a negative or non-numeric number

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PINNED = ("botocore", "openai", "anthropic", "google-genai", "pydantic")


@dataclass
class Known:
    """An expected problem: provider, kind and a path pattern (`*` is any one segment)."""

    provider: str
    kind: str
    path: str
    reason: str
    topic: str
    seen: int = 0

    def matches(self, provider: str, problem: oracle.Problem) -> bool:
        if provider != self.provider or problem.kind != self.kind:
            return False
        want, got = self.path.split("/"), problem.path.split("/")
        return len(want) == len(got) and all(w in ("*", g) for w, g in zip(want, got, strict=True))


def load_known(path: Path) -> list[Known]:
    entries = json.loads(path.read_text(encoding="utf-8"))["known"]
    known = []
    for entry in entries:
        if set(entry) != {"provider", "kind", "path", "reason", "topic"}:
            raise ValueError(f"{path}: an entry needs exactly provider, kind, path, reason, topic: {entry}")
        if entry["provider"] not in inputs.PROVIDERS or entry["kind"] not in oracle.KINDS:
            raise ValueError(f"{path}: unknown provider or kind in {entry}")
        known.append(Known(**entry))
    return known


def self_test(oracles: dict[str, Any], path: Path) -> tuple[int, list[str]]:
    """Each hand-written body must give exactly the listed problems (kind and path), and every
    provider must be shown refusing each of the four basic kinds."""
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    failures = []
    for case in cases:
        got = sorted((p.kind, p.path) for p in oracles[case["provider"]].check(case["body"]))
        want = sorted((e["kind"], e["path"]) for e in case["expect"])
        if got != want:
            failures.append(f"self-test {case['provider']}, {case['name']}: expected {want}, got {got}")
    covered = {(c["provider"], e["kind"]) for c in cases for e in c["expect"]}
    for provider in inputs.PROVIDERS:
        for kind in ("unknown_key", "missing_key", "wrong_literal", "wrong_type"):
            if (provider, kind) not in covered:
                failures.append(f"self-test: no case shows {provider} refusing a body with {kind}")
    return len(cases), failures


def generalize(path: str) -> str:
    return "/".join("*" if seg.isdigit() else seg for seg in path.split("/"))


@dataclass
class Tally:
    """What checking the converter's outcomes found."""

    rows: dict[str, collections.Counter[str]]  # per provider: fixtures, generated, valid, problems, ...
    refusals: dict[str, collections.Counter[str]]  # per provider: the converter's error codes
    unexpected: list[tuple[str, str, oracle.Problem]]  # provider, case, problem
    known_hits: list[tuple[Known, str, oracle.Problem]]


def tally(outcomes: list[inputs.Outcome], oracles: dict[str, Any], known: list[Known]) -> Tally:
    result = Tally(
        {p: collections.Counter() for p in inputs.PROVIDERS},
        {p: collections.Counter() for p in inputs.PROVIDERS},
        [],
        [],
    )
    for outcome in outcomes:
        provider, row = outcome.job.provider, result.rows[outcome.job.provider]
        if outcome.body is None:
            result.refusals[provider].update(set(outcome.errors))
            row["refused"] += 1
            continue
        row["generated" if outcome.job.case.startswith("generated/") else "fixtures"] += 1
        problems = oracles[provider].check(outcome.body)
        row["valid" if not problems else "invalid"] += 1
        row["problems"] += len(problems)
        for problem in problems:
            entry = next((k for k in known if k.matches(provider, problem)), None)
            if entry is None:
                result.unexpected.append((provider, outcome.job.case, problem))
                row["unexpected"] += 1
            else:
                entry.seen += 1
                result.known_hits.append((entry, outcome.job.case, problem))
                row["known"] += 1
    return result


def print_table(result: Tally) -> None:
    header = ("provider", "bodies", "fixtures", "generated", "valid", "problems", "known", "unexpected", "refused")
    print("\n" + "".join(f"{h:>11}" if i else f"{h:<20}" for i, h in enumerate(header)))
    for provider, row in result.rows.items():
        cells = [row["fixtures"] + row["generated"]] + [row[h] for h in header[2:]]
        print(f"{provider:<20}" + "".join(f"{c:>11}" for c in cells))
    for provider, codes in result.refusals.items():
        if codes:
            listed = ", ".join(f"{code} {n}" for code, n in codes.most_common())
            print(f"  {provider} refused (the converter's own errors; no body to check): {listed}")


def print_known(result: Tally, known: list[Known]) -> None:
    first: dict[int, tuple[str, oracle.Problem]] = {}
    for entry, case, problem in result.known_hits:
        first.setdefault(id(entry), (case, problem))
    if first:
        print("\nknown problems (known.json):")
    for entry in known:
        if id(entry) in first:
            case, problem = first[id(entry)]
            print(f"  {entry.provider}, {entry.kind} at {entry.path}: {entry.seen} times")
            print(f"    e.g. {entry.provider}, {case}, {problem.path}, {problem.kind}: {problem.detail}")
            print(f"    {entry.topic}: {entry.reason}")


def print_unexpected(result: Tally, verbose: bool) -> None:
    if not result.unexpected:
        return
    print("\nunexpected problems (provider, case, path, problem):")
    groups: dict[tuple[str, str, str], list[tuple[str, oracle.Problem]]] = collections.defaultdict(list)
    for provider, case, problem in result.unexpected:
        groups[(provider, problem.kind, generalize(problem.path))].append((case, problem))
    for (provider, kind, path), hits in groups.items():
        print(f"  {provider}, {kind} at {path}: {len(hits)} times")
        for case, problem in hits if verbose else hits[:3]:
            print(f"    {provider}, {case}, {problem.path}, {problem.kind}: {problem.detail}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", type=Path, default=ROOT / "target/debug/agent-input", help="the agent-input binary")
    parser.add_argument("--fixtures", type=Path, default=ROOT / "tests/fixtures")
    parser.add_argument("--known", type=Path, default=HERE / "known.json")
    parser.add_argument("--generated", type=int, default=300, help="how many inputs to generate")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="parallel CLI runs")
    parser.add_argument("--verbose", action="store_true", help="print every problem, not three per group")
    args = parser.parse_args()

    start = time.monotonic()
    print("sdk-oracle: " + ", ".join(f"{name} {metadata.version(name)}" for name in PINNED))
    oracles = oracle.oracles()
    known = load_known(args.known)

    tests, failures = self_test(oracles, HERE / "selftest.json")
    print(f"self-test: {tests} hand-written bodies, {len(failures)} failures")
    passed = max(tests - len(failures), 0)

    fixtures = inputs.fixture_jobs(args.fixtures)
    generated = inputs.generated_jobs(args.generated, args.seed)
    for job, codes in inputs.invalid_inputs(args.cli, generated[:: len(inputs.PROVIDERS)], args.workers):
        failures.append(f"generator: {job.case} is not valid input ({', '.join(codes)}): fix inputs.Generator")
    outcomes, unrepresentable = inputs.convert_all(args.cli, fixtures.jobs + generated, args.workers)
    print(
        f"inputs: {len({j.case for j in fixtures.jobs})} fixture inputs (cases × option sets), "
        f"{args.generated} generated (seed {args.seed}); not converted: {fixtures.invalid_cases} invalid fixture "
        f"cases, {fixtures.ml_commons_sets} option sets in ml-commons parity mode (the body is ml-commons' own)"
    )
    unflagged: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
    for job, why in unrepresentable:
        unflagged[(job.case, why)].append(job.provider)
    for (case, why), providers in sorted(unflagged.items()):
        print(f"  not converted for {len(providers)} providers: {case}: the CLI takes no flags for its options: {why}")
    for what, count, pinned in (
        ("option sets in ml-commons parity mode", fixtures.ml_commons_sets, ML_COMMONS_OPTION_SETS),
        ("option sets the CLI takes no flags for", len(unflagged), UNFLAGGED_OPTION_SETS),
    ):
        if count != pinned and args.fixtures.resolve() == ROOT / "tests/fixtures":
            failures.append(f"left out: {count} {what}, pinned at {pinned} in check.py: look at them, then raise it")

    result = tally(outcomes, oracles, known)
    print_table(result)
    print_known(result, known)
    print_unexpected(result, args.verbose)
    stale = [entry for entry in known if entry.seen == 0]
    for entry in stale:
        print(
            f"\nstale known entry (no body shows it any more; remove it from known.json): "
            f"{entry.provider}, {entry.kind} at {entry.path} ({entry.topic})"
        )
    for failure in failures:
        print(failure)

    rows = result.rows.values()
    bodies = sum(row["fixtures"] + row["generated"] for row in rows)
    valid = sum(row["valid"] for row in rows)
    print(
        f"\n{bodies} bodies checked, {valid} valid; {sum(row['problems'] for row in rows)} problems: "
        f"{len(result.known_hits)} known, {len(result.unexpected)} unexpected; {len(stale)} stale known entries; "
        f"{time.monotonic() - start:.1f} s"
    )
    failed = len(result.unexpected) + len(stale) + len(failures)
    print(f"{passed + valid} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
