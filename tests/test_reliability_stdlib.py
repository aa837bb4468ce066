"""optlint over the standard library, every file forced through the prefilter (parsed, indexed and
given to every rule): no internal error, and no OPT000 on a file CPython compiles. Errors that say
why a file was not analysed (libcst rejecting valid code, nesting too deep) are allowed.

CI checks a sample that holds the known hard files; the whole library:
    OPTLINT_STDLIB_SWEEP=1 python -m pytest tests/test_reliability_stdlib.py -s
"""

from __future__ import annotations

import ast
import os
import random
import sysconfig
from pathlib import Path

import pytest

from optlint.config import Settings
from optlint.engine import LintOptions
from optlint.pool import check_paths
from optlint.prefilter import Decision, Prefilter
from optlint.selection import Selection
from optlint.source import SourceError, read_source
from optlint.versions import LibraryVersions

STDLIB = Path(sysconfig.get_paths()["stdlib"])
HARD = ["pydoc_data/topics.py", "test/test_grammar.py", "test/test_patma.py", "_pydecimal.py",
        "test/test_syntax.py", "test/test_fstring.py", "typing.py", "test/test_unicode.py"]


def compiles(path: Path) -> bool:
    try:
        compile(read_source(path).text, str(path), "exec", flags=ast.PyCF_ONLY_AST,
                dont_inherit=True)
    except (SourceError, SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def stdlib_files() -> list[Path]:
    every = sorted(p for p in STDLIB.rglob("*.py") if "site-packages" not in p.parts)
    if os.environ.get("OPTLINT_STDLIB_SWEEP"):
        return every
    sample = random.Random(13).sample(every, min(30, len(every)))
    return sorted({*sample, *(STDLIB / name for name in HARD if (STDLIB / name).exists())})


def test_standard_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Prefilter, "decide", lambda self, text, filename: Decision(True))
    files = stdlib_files()
    options = LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                          LibraryVersions(), tmp_path)
    results = check_paths(files, options, jobs=None)
    internal = [e for r in results for e in r.errors if "internal error" in e or r.internal_error]
    wrong = [d for r in results for d in r.diagnostics
             if d.code == "OPT000" and compiles(Path(r.filename))]
    not_analysed = [e for r in results for e in r.errors]
    print(f"\n{len(files)} files; not analysed: {len(not_analysed)}")
    print("\n".join(not_analysed))
    assert internal == []
    assert wrong == []
