"""Fixes land on the lines the parser reports, whatever the line endings: `\n`, `\r\n`, a lone
`\r` (old Mac files, or one inside a docstring), mixed, with a BOM or in latin-1. A fix round trip
parses, is idempotent, changes only the flagged line and keeps every line ending byte for byte."""

from __future__ import annotations

import random
from pathlib import Path

import libcst as cst
import pytest

from optlint.edits import line_starts, source_lines
from reliability_helpers import FIXABLE, FIXED_LINE, linter, run_cli

ENDINGS = ["\n", "\r\n", "\r"]
FLAGGED = 6  # 0-based index of FIXABLE's `opt_state = optimizer.init(model)` line


def with_endings(text: str, endings: list[str]) -> str:
    lines = text.split("\n")[:-1]
    return "".join(line + endings[number % len(endings)] for number, line in enumerate(lines))


def assert_round_trip(original: str, fixed: str | None, flagged: set[int]) -> None:
    assert fixed is not None, "the fix was not applied"
    cst.parse_module(fixed)
    before, after = source_lines(original), source_lines(fixed)
    assert len(before) == len(after)
    for number, (old, new) in enumerate(zip(before, after, strict=True)):
        old_body, new_body = old.rstrip("\r\n"), new.rstrip("\r\n")
        assert old[len(old_body):] == new[len(new_body):], f"line {number + 1}: ending changed"
        if number not in flagged:
            assert old == new, f"line {number + 1} changed but was not flagged"
    assert FIXED_LINE in fixed


def test_lone_carriage_return_in_docstring_is_fixed_in_place(tmp_path: Path) -> None:
    # Reproducer: the edit offsets counted only `\n`; the fix text went into the docstring.
    text = '"""Doc.\rMore doc."""\n' + FIXABLE
    result = linter(tmp_path, fix=True).fix_text(text, "doc.py")
    assert_round_trip(text, result.fixed, {FLAGGED + 2})
    assert result.fixed is not None and result.fixed.startswith('"""Doc.\rMore doc."""\n')


@pytest.mark.parametrize("endings", [["\n"], ["\r\n"], ["\r"], ["\n", "\r\n", "\r"]],
                         ids=["lf", "crlf", "cr", "mixed"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "latin-1"])
def test_fix_on_disk_keeps_bytes_of_every_other_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     endings: list[str], encoding: str) -> None:
    header = "# -*- coding: latin-1 -*-\n# caf\xe9\n" if encoding == "latin-1" else "# caf\xe9\n"
    text = with_endings(header + FIXABLE, endings)
    path = tmp_path / "train.py"
    path.write_bytes(text.encode(encoding))
    run = run_cli(monkeypatch, tmp_path, "check", "--fix", "--jobs", "1", "train.py")
    assert run.exit_code == 0, run.stderr
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") == (encoding == "utf-8-sig")
    fixed = data.decode(encoding)
    assert_round_trip(text, fixed, {FLAGGED + header.count("\n")})
    again = run_cli(monkeypatch, tmp_path, "check", "--fix", "--jobs", "1", "train.py")
    assert again.exit_code == 0 and path.read_bytes() == data, "the fix is not idempotent"


def test_line_model_matches_libcst_on_random_endings() -> None:
    # Fuzz: random mixes of endings (and the characters str.splitlines also splits at) inside
    # strings and comments; every line libcst reports starts where line_starts says.
    rng = random.Random(13)
    pieces = ["x = 1", "# c\x0c", "s = '\x1c'", '"""a\rb\r\nc"""', "y = (1,\r 2)", "pass",
              "t = '\u2028'"]
    for _ in range(300):
        text = "".join(rng.choice(pieces) + rng.choice(ENDINGS) for _ in range(rng.randint(1, 8)))
        module = cst.parse_module(text)
        wrapper = cst.metadata.MetadataWrapper(module, unsafe_skip_copy=True)
        positions = wrapper.resolve(cst.metadata.PositionProvider)
        starts = line_starts(text)
        for statement in module.body:
            start = positions[statement].start
            at = starts[start.line - 1] + start.column
            code = module.code_for_node(statement.with_changes(leading_lines=()))
            assert text[at:].startswith(code[:3]), repr(text)
