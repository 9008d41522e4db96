#!/usr/bin/env python3
"""Writes crates/agent-input/tests/data/document_names.json: document names and the name Bedrock
gets for each, computed here with Python's unicodedata (NFKD without combining marks: a
transliteration) and the rules of docs/decisions/providers.md
("Document names"), independently of the library's own tables (scripts/gen-nfkc-ascii.py).
crates/agent-input/tests/document_names.rs checks the library against the file.

The first 4,000 committed names were drawn at random once (the script that drew them was not
kept); 50 Latin names with diacritics were added for transliteration. So
by default this script keeps the names in the file and recomputes every expected name (a
rerun must leave the file unchanged: scripts/test checks that). `--new N SEED` draws N new names
the same way (ASCII, full-width forms, ligatures and other compatibility characters, combining
marks, random code points), replacing the old ones.

Run: python3 scripts/gen-document-names.py [--check] [--new N SEED]
"""
import json
import pathlib
import random
import sys
import unicodedata

OUT = pathlib.Path(__file__).resolve().parent.parent / "crates/agent-input/tests/data/document_names.json"
ABOUT = ("Document names and their Bedrock-safe form, computed by Python's unicodedata (Unicode "
         "{version}) NFKD without combining marks followed by the rules of "
         "docs/decisions/providers.md; written by scripts/gen-document-names.py, checked by "
         "crates/agent-input/tests/document_names.rs.")
MAX_LEN = 200
ALLOWED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-()[]")


def drop_extension(name):
    """Drops a final `.ext`: a dot not at the start, then 1-10 ASCII letters or digits, at least
    one a letter (so `Version 2.0` keeps its number)."""
    dot = name.rfind(".")
    ext = name[dot + 1:]
    if dot > 0 and 1 <= len(ext) <= 10 and all(c.isascii() and c.isalnum() for c in ext) \
            and any(c.isascii() and c.isalpha() for c in ext):
        return name[:dot]
    return name


def sanitize(given):
    """The Bedrock-safe name, or None when nothing usable is left (the library then uses
    `document-N`)."""
    decomposed = unicodedata.normalize("NFKD", given)
    stem = drop_extension("".join(c for c in decomposed if not unicodedata.combining(c)))
    mapped = "".join(c if c in ALLOWED else " " for c in stem)
    name = mapped.strip(" ")
    while "  " in name:
        name = name.replace("  ", " ")
    name = name[:MAX_LEN].rstrip(" ")
    return name or None


def draw(n, seed):
    """N random names mixing the characters normalization treats specially."""
    rng = random.Random(seed)
    pools = [
        [chr(c) for c in range(0x20, 0x7F)],                       # ASCII
        [chr(c) for c in range(0xFF01, 0xFF5F)],                   # full-width forms
        ["\u3000", "\u00a0", "\u2003", "\t", "\u00bd", "\u00b2", "\ufb01", "\u2460", "\u1e9b",
         "\u0130", "\u1100", "\uac00"],                            # spaces, fractions, ligatures, jamo
        [chr(c) for c in range(0x0300, 0x0370)],                   # combining marks
        [chr(c) for c in range(0x1D400, 0x1D800)],                 # mathematical alphanumerics
    ]
    names = []
    for _ in range(n):
        chars = []
        for _ in range(rng.randint(1, 10)):
            if rng.random() < 0.3:
                cp = rng.randint(0x80, 0x2FFFF)
                if 0xD800 <= cp <= 0xDFFF:
                    cp = 0x41
                chars.append(chr(cp))
            else:
                chars.append(rng.choice(rng.choice(pools)))
        names.append("".join(chars))
    return names


def render(names):
    out = {"about": ABOUT.format(version=unicodedata.unidata_version),
           "cases": [[name, sanitize(name)] for name in names]}
    return json.dumps(out, indent=0, ensure_ascii=False)


def main(args):
    if args[:1] == ["--new"]:
        names = draw(int(args[1]), int(args[2]))
    else:
        names = [case[0] for case in json.loads(OUT.read_text(encoding="utf-8"))["cases"]]
    text = render(names)
    if "--check" in args:
        if OUT.read_text(encoding="utf-8") != text:
            sys.exit(f"{OUT} differs from what scripts/gen-document-names.py writes")
        return
    OUT.write_text(text, encoding="utf-8")
    print(f"{OUT}: {len(names)} names")


if __name__ == "__main__":
    main(sys.argv[1:])
