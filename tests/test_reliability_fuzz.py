"""Generated programs: mutations of the Equinox/Optax fixtures and examples (lines dropped,
repeated, swapped, re-indented or cut; characters, line endings, brackets, NUL bytes and deep
nesting inserted). Each is linted and fixed in this process; nothing may raise, no rule may
crash, and a fix must parse, keep the file's line endings and be idempotent.

CI runs a few hundred programs with a fixed seed. For a long run:
    OPTLINT_FUZZ_PROGRAMS=10000 OPTLINT_FUZZ_SEED=7 python -m pytest tests/test_reliability_fuzz.py
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import libcst as cst

from optlint.edits import source_lines
from reliability_helpers import linter

REPO = Path(__file__).resolve().parents[1]
SEEDS = sorted(p for folder in (REPO / "tests" / "fixtures", REPO / "examples")
               for p in folder.rglob("*.py") if not p.name.endswith(".fixed.py"))
PROGRAMS = int(os.environ.get("OPTLINT_FUZZ_PROGRAMS", "300"))
SEED = int(os.environ.get("OPTLINT_FUZZ_SEED", "13"))
SNIPPETS = ["(", ")", "[", "]", "{", "}", ":", ",", "\\", "'", '"', '"""', "#", "\0", "\r",
            "\r\n", "\t", "\x0c", "\u2028", "é", "lambda: ", "not ", "*", "**", "@", "=",
            "optax.", "eqx.filter(", "model", ".init(", "await ", "yield ", "    ", "\ufeff"]
Mutation = Callable[[random.Random, list[str]], list[str]]


def drop(rng: random.Random, lines: list[str]) -> list[str]:
    del lines[rng.randrange(len(lines))]
    return lines


def repeat(rng: random.Random, lines: list[str]) -> list[str]:
    at = rng.randrange(len(lines))
    return lines[:at] + [lines[at]] * rng.randint(2, 5) + lines[at:]


def swap(rng: random.Random, lines: list[str]) -> list[str]:
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[a], lines[b] = lines[b], lines[a]
    return lines


def indent(rng: random.Random, lines: list[str]) -> list[str]:
    at = rng.randrange(len(lines))
    lines[at] = rng.choice(["", "  ", "    ", "\t", "        "]) + lines[at].lstrip(" \t")
    return lines


def insert(rng: random.Random, lines: list[str]) -> list[str]:
    at = rng.randrange(len(lines))
    column = rng.randint(0, len(lines[at]))
    lines[at] = lines[at][:column] + rng.choice(SNIPPETS) + lines[at][column:]
    return lines


def endings(rng: random.Random, lines: list[str]) -> list[str]:
    ending = rng.choice(["\n", "\r\n", "\r"])
    return [line.rstrip("\r\n") + ending for line in lines]


def nest(rng: random.Random, lines: list[str]) -> list[str]:
    depth = rng.choice([50, 300, 1200])
    deep = rng.choice([f"x = {'(' * depth}1{')' * depth}\n", f"x = {'not ' * depth}1\n",
                       f"x = a{'.b' * depth}\n", "x = " + " + ".join(["a"] * depth) + "\n"])
    return lines[:1] + [deep] + lines[1:]


def cut(rng: random.Random, lines: list[str]) -> list[str]:
    text = "".join(lines)
    return source_lines(text[:rng.randrange(max(1, len(text)))]) or ["\n"]


MUTATIONS: list[Mutation] = [drop, repeat, swap, indent, insert, insert, insert, endings, nest,
                             cut]


def mutated(rng: random.Random, text: str) -> str:
    lines = source_lines(text)
    for _ in range(rng.randint(1, 4)):
        lines = rng.choice(MUTATIONS)(rng, lines or ["\n"]) or ["\n"]
    return "".join(lines)


def test_generated_programs(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    texts = [text for path in SEEDS if (text := path.read_text(encoding="utf-8")).strip()]
    check = linter(tmp_path)
    fixer = linter(tmp_path, fix=True)
    problems = []
    for number in range(PROGRAMS):
        program = mutated(rng, rng.choice(texts))
        filename = str(tmp_path / f"program_{number}.py")
        try:
            linted = check.lint_text(program, filename)
            fixed = fixer.fix_text(program, filename)
        except Exception as error:  # noqa: BLE001 - collected and reported below
            problems.append(f"{number}: {error!r}\n{program!r}")
            continue
        internal = [e for e in linted.errors + fixed.errors if "internal error" in e]
        if internal:
            problems.append(f"{number}: {internal}\n{program!r}")
        if fixed.fixed is not None:
            problems.extend(f"{number}: {problem}\n{program!r}"
                            for problem in fix_problems(fixer, program, fixed.fixed, filename))
    assert not problems, f"{len(problems)} of {PROGRAMS} programs:\n" + "\n".join(problems[:5])


def fix_problems(fixer, original: str, fixed: str, filename: str) -> list[str]:  # type: ignore[no-untyped-def]
    problems = []
    try:
        cst.parse_module(fixed)
    except cst.ParserSyntaxError:
        problems.append("the fixed text does not parse")
    kept = {line[len(line.rstrip("\r\n")):] for line in source_lines(original)}
    added = {line[len(line.rstrip("\r\n")):] for line in source_lines(fixed)} - kept
    if added and kept:
        problems.append(f"the fix added line endings {added!r}")
    if fixer.fix_text(fixed, filename).fixed is not None:
        problems.append("fixing the fixed text changes it again")
    return problems
