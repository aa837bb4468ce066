"""optlint.patterns: a pattern that a run does not use is not compiled (each compile is tens to
hundreds of microseconds of `re`'s parser; a one-file check imported ~30 and used fewer than half),
and one compiled is compiled once."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from optlint.patterns import compiled

# Runs `optlint check` in a fresh interpreter, noting every pattern `re` compiles.
PROBE = textwrap.dedent("""
    import json, sys
    import re._compiler
    seen = []
    real = re._compiler.compile
    def noting(pattern, flags=0):
        seen.append(pattern if isinstance(pattern, str) else repr(pattern))
        return real(pattern, flags)
    re._compiler.compile = noting
    from optlint.cli import main
    try:
        main(sys.argv[1:], prog_name="optlint")
    except SystemExit:
        pass
    print("\\nCOMPILED " + json.dumps(seen))
""")

# Module constants compiled only where used: (module, name).
LAZY = [("optlint.config", "_HEADER"), ("optlint.config", "_KEY"), ("optlint.config", "_SIZE"),
        ("optlint.versions", "_REQUIREMENT"), ("optlint.edits", "_LINE"),
        ("optlint.analysis.comments", "_STRING_OR_COMMENT"),
        ("optlint.analysis.reach", "_FROM_IMPORT"), ("optlint.analysis.reach", "_IMPORT"),
        ("optlint.analysis.parameters", "_CLASS_BASES"),
        ("optlint.analysis.parameters", "_ISINSTANCE")]


def _compiled_by_check(folder: Path, *args: str) -> list[str]:
    result = subprocess.run([sys.executable, "-c", PROBE, "check", "--no-cache", *args],
                            cwd=folder, text=True, capture_output=True, timeout=120)
    assert "\nCOMPILED " in result.stdout, result.stdout + result.stderr
    return json.loads(result.stdout.rsplit("\nCOMPILED ", 1)[1])


def _sources() -> dict[tuple[str, str], str]:
    import importlib

    return {(module, name): getattr(importlib.import_module(module), name)
            for module, name in LAZY}


def test_a_one_file_check_compiles_no_pattern_it_does_not_use(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "train.py").write_text(
        "import optax\n\noptimizer = optax.adamw(1e-3)  # a comment\n")
    seen = set(_compiled_by_check(tmp_path, "train.py"))
    assert [key for key, source in _sources().items() if source in seen] == []


def test_the_patterns_are_compiled_where_used(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.optlint]\nmax-file-size = "5 MiB"\n')
    (tmp_path / "requirements.txt").write_text("optax==0.2.3\n")
    (tmp_path / "model.py").write_text("import equinox as eqx\n\nclass Net(eqx.Module):\n"
                                       "    width: int = 3\n")
    (tmp_path / "train.py").write_text(
        "import optax\nfrom model import Net  # the model\n\ndef make(net: Net):\n"
        "    return optax.adamw(1e-3), isinstance(net, Net)\n\nmake(Net())\n")
    seen = set(_compiled_by_check(tmp_path, "--output-format", "full", "."))
    used = {("optlint.config", "_KEY"), ("optlint.config", "_SIZE"),
            ("optlint.analysis.reach", "_FROM_IMPORT")}
    assert {key for key, source in _sources().items() if source in seen} >= used


def test_a_pattern_is_compiled_once() -> None:
    assert compiled(r"a+b", 0) is compiled(r"a+b", 0)
    assert compiled(r"a+b", 0).fullmatch("aab") is not None
