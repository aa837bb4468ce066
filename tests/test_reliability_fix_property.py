"""The fix-safety property, over every rule with a fix: programs generated from the fixtures
that have a fix (comments and line continuations inside calls, CRLF, form feeds, non-ASCII
names, later and conditional imports, notebook cells) are fixed with `--fix --unsafe-fixes`, and

- the fixed file parses, and a second `--fix` changes nothing;
- only the lines a finding or its fix covers changed, besides added imports (plain files);
- every comment survives (the `# noqa` ones OPT100 edits aside);
- the fixed program runs where the original ran (with stand-in libraries, stub_libraries.py).

CI runs a few dozen programs with a fixed seed. For a long run:
    OPTLINT_FIX_PROGRAMS=2000 OPTLINT_FIX_SEED=3 python -m pytest tests/test_reliability_fix_property.py
"""

from __future__ import annotations

import difflib
import io
import json
import os
import random
import re
import shlex
import shutil
import tokenize
from pathlib import Path

import libcst as cst
import pytest

from conftest import FIXTURES
from reliability_helpers import run_cli
from stub_libraries import run_cells_with_stubs, run_with_stubs

PROGRAMS = int(os.environ.get("OPTLINT_FIX_PROGRAMS", "24"))
SEED = int(os.environ.get("OPTLINT_FIX_SEED", "5"))
SEEDS = sorted(path.with_name(path.name.replace(".fixed.py", ".py"))
               for path in FIXTURES.glob("OPT*/*.fixed.py"))


# mutations --------------------------------------------------------------------------------------
class _CommentsInCalls(cst.CSTTransformer):
    """Some calls written one argument a line, each with a comment after it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.count = 0

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if not updated.args or self.rng.random() < 0.5:
            return updated
        args = []
        for arg in updated.args:
            self.count += 1
            comment = cst.Comment(f"# note {self.count}")
            after = cst.ParenthesizedWhitespace(
                first_line=cst.TrailingWhitespace(whitespace=cst.SimpleWhitespace("  "),
                                                  comment=comment),
                indent=True, last_line=cst.SimpleWhitespace("    "))
            comma = arg.comma if isinstance(arg.comma, cst.Comma) else cst.Comma()
            args.append(arg.with_changes(comma=comma.with_changes(whitespace_after=after)))
        before = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace("    "))
        return updated.with_changes(args=args, whitespace_before_args=before)


class _Continuations(cst.CSTTransformer):
    """`x = \\` and the value on the next line, for some assignments."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def leave_AssignTarget(self, original: cst.AssignTarget,
                           updated: cst.AssignTarget) -> cst.AssignTarget:
        if self.rng.random() < 0.4:
            return updated.with_changes(whitespace_after_equal=cst.SimpleWhitespace(" \\\n    "))
        return updated


class _Rename(cst.CSTTransformer):
    """Module-level names renamed to non-ASCII ones (every use; attributes and keywords kept)."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(value=original.value.visit(self))

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.names.get(updated.value, updated.value))


def _module_names(module: cst.Module) -> list[str]:
    names = []
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    names += [t.target.value for t in small.targets
                              if isinstance(t.target, cst.Name)]
    return names


def mutate(text: str, rng: random.Random) -> tuple[str, list[str]]:
    done = []
    module = cst.parse_module(text)
    if rng.random() < 0.6:
        module = module.visit(_CommentsInCalls(rng))
        done.append("comments")
    if rng.random() < 0.4:
        module = module.visit(_Continuations(rng))
        done.append("continuations")
    names = _module_names(module)
    if names and rng.random() < 0.4:
        chosen = rng.sample(names, min(2, len(names)))
        module = module.visit(_Rename({name: name + "_é" for name in chosen}))
        done.append("non-ascii")
    text = module.code
    lines = text.splitlines(keepends=True)
    if rng.random() < 0.4:  # form feeds on lines of their own, between top-level statements
        blanks = [number for number, line in enumerate(lines) if line == "\n"]
        for number in rng.sample(blanks, min(2, len(blanks))):
            lines[number] = "\f\n"
        done.append("form-feeds")
    text = "".join(lines)
    if rng.random() < 0.4:
        text += "\nimport os\nprint(os.sep)\n"
        done.append("later-import")
    if rng.random() < 0.3:
        text += "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import equinox\n"
        done.append("conditional-import")
    if rng.random() < 0.3:
        text = text.replace("\n", "\r\n")
        done.append("crlf")
    return text, done


# checks -----------------------------------------------------------------------------------------
def comments(text: str) -> list[str]:
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT and "noqa" not in token.string:
            found.append(token.string.strip())
    return sorted(found)


def allowed_lines(report: list[dict]) -> set[int]:
    lines: set[int] = set()
    for finding in report:
        spans = [finding] + (finding["fix"]["edits"] if finding.get("fix") else [])
        for span in spans:
            lines.update(range(span["line"], span["end_line"] + 1))
    return lines


def changed_outside(before: str, after: str, allowed: set[int]) -> list[str]:
    old, new = python_lines(before), python_lines(after)
    outside = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if tag == "insert" and all(line.startswith("import ") or line.strip() == ""
                                   for line in new[j1:j2]):
            continue
        touched = set(range(i1 + 1, i2 + 1)) or {i1, i1 + 1}
        if not touched & allowed:
            outside.append(f"{tag} {old[i1:i2]} -> {new[j1:j2]}")
    return outside


def python_lines(text: str) -> list[str]:
    """Lines as Python counts them (`str.splitlines` also breaks at a form feed)."""
    return re.split(r"\r\n|\r|\n", text)


def arguments(text: str) -> list[str]:
    first = text.splitlines()[0] if text else ""
    prefix = "# optlint-args:"
    return shlex.split(first[len(prefix):]) if first.startswith(prefix) else []


def notebook(text: str) -> str:
    module = cst.parse_module(text)
    cells, current = [], module.header and "".join(module.code_for_node(h) for h in module.header)
    pieces: list[str] = [current or ""]
    for statement in module.body:
        pieces.append(module.code_for_node(statement))
        if len(pieces) >= 3:
            cells.append("".join(pieces))
            pieces = []
    cells.append("".join(pieces))
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                                  "execution_count": None, "source": cell} for cell in cells],
                       "metadata": {"language_info": {"name": "python"}}, "nbformat": 4,
                       "nbformat_minor": 5}, indent=1)


@pytest.mark.parametrize("number", range(PROGRAMS))
def test_fixes_are_safe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, number: int) -> None:
    rng = random.Random(SEED * 100_000 + number)
    seed = rng.choice(SEEDS)
    folder = tmp_path / "case"
    shutil.copytree(seed.parent, folder, ignore=shutil.ignore_patterns("*.txt", "*.fixed.py"))
    (folder / "pyproject.toml").write_text("[tool.optlint]\n")
    original, done = mutate(seed.read_text(encoding="utf-8"), rng)
    options = arguments(seed.read_text(encoding="utf-8"))
    as_notebook = rng.random() < 0.2 and "crlf" not in done
    name = seed.stem + (".ipynb" if as_notebook else ".py")
    path = folder / name
    (folder / seed.name).unlink()
    path.write_bytes((notebook(original) if as_notebook else original).encode("utf-8"))
    written = path.read_bytes()
    context = f"{seed.relative_to(FIXTURES)} {done} notebook={as_notebook}"

    before_run = (run_cells_with_stubs(_cells(written), folder) if as_notebook
                  else run_with_stubs(path))
    report = run_cli(monkeypatch, folder, "check", "--no-cache", "--jobs", "1",
                     "--unsafe-fixes", "--output-format", "json", *options, name)
    assert report.exit_code in (0, 1), f"{context}: {report.stderr}"
    fix = run_cli(monkeypatch, folder, "check", "--fix", "--unsafe-fixes", "--jobs", "1",
                  *options, name)
    assert "error" not in fix.stderr, f"{context}: {fix.stderr}"
    fixed_bytes = path.read_bytes()
    again = run_cli(monkeypatch, folder, "check", "--fix", "--unsafe-fixes", "--jobs", "1",
                    *options, name)
    assert path.read_bytes() == fixed_bytes, f"{context}: a second --fix changed the file"
    assert "error" not in again.stderr, f"{context}: {again.stderr}"

    old_text = "\n".join(_cells(written)) if as_notebook else written.decode("utf-8")
    new_text = "\n".join(_cells(fixed_bytes)) if as_notebook else fixed_bytes.decode("utf-8")
    compile(new_text, name, "exec")
    assert comments(old_text) == comments(new_text) or set(comments(old_text)) <= set(
        comments(new_text)), f"{context}: a comment was lost"
    if not as_notebook:
        if "crlf" in done:
            assert new_text.count("\n") == new_text.count("\r\n"), f"{context}: a bare LF"
        outside = changed_outside(old_text.replace("\r\n", "\n"), new_text.replace("\r\n", "\n"),
                                  allowed_lines(json.loads(report.stdout)))
        assert not outside, f"{context}: changed outside the findings: {outside}"
    if before_run.returncode == 0:
        after_run = (run_cells_with_stubs(_cells(fixed_bytes), folder) if as_notebook
                     else run_with_stubs(path))
        assert after_run.returncode == 0, f"{context}: the fixed program fails: {after_run.stderr}"


def _cells(data: bytes) -> list[str]:
    return ["".join(cell["source"]) for cell in json.loads(data)["cells"]
            if cell["cell_type"] == "code"]
