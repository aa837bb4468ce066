"""The code of the functions optlint writes as source, kept between runs (optlint.generated_code):
a second `optlint check` compiles none of the sources the first compiled, and the file is used
only where it was written for this bytecode and read whole."""

from __future__ import annotations

import marshal
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import optlint
from optlint import generated_code

PACKAGE = Path(optlint.__file__).resolve().parent
TRAIN = textwrap.dedent("""\
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 2, 8, 2, activation=jax.nn.relu, key=jax.random.PRNGKey(0))
    optimizer = optax.adam(1e-3)
    state = optimizer.init(model)
    key = jax.random.PRNGKey(0)
    a = jax.random.normal(key, (2,))
    b = jax.random.normal(key, (2,))
""")
# `optlint check` as the program runs it, counting the sources optlint's modules compile on the
# way: every `compile` of a string and every `exec` of one (libcst's dataclasses, compiled as
# they are imported, are not optlint's).
COUNTING_CHECK = textwrap.dedent("""
    import builtins, os, sys
    compiled = []
    def ours():
        return sys._getframe(2).f_globals.get("__name__", "").startswith("optlint")
    real_compile, real_exec = builtins.compile, builtins.exec
    def counting_compile(source, *args, **kwargs):
        if isinstance(source, str) and ours():
            compiled.append(source)
        return real_compile(source, *args, **kwargs)
    def counting_exec(source, *args, **kwargs):
        if isinstance(source, str) and ours():
            compiled.append(source)
        return real_exec(source, *args, **kwargs)
    builtins.compile, builtins.exec = counting_compile, counting_exec
    real_exit = os._exit
    def exit_(status):
        sys.stderr.write(f"COMPILED {len(compiled)}\\n")
        sys.stderr.flush()
        real_exit(status)
    os._exit = exit_
    sys.argv = ["optlint", "check", "--no-cache", "--exit-zero", "-q", "train.py"]
    from optlint.launch import run
    run()
""")


def _compiled_by_a_check(root: Path) -> int:
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run([sys.executable, "-c", COUNTING_CHECK], cwd=root, env=env, text=True,
                          capture_output=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    assert "OPT020" in done.stdout, done.stdout  # (the check ran)
    return int(done.stderr.rsplit("COMPILED ", 1)[1].split()[0])


def test_a_second_check_compiles_nothing_the_first_compiled(tmp_path: Path) -> None:
    shutil.copytree(PACKAGE, tmp_path / "optlint",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (tmp_path / "train.py").write_text(TRAIN)
    first = _compiled_by_a_check(tmp_path)
    assert first > 20  # records' `__init__`s, at least
    assert next((tmp_path / "optlint" / "__pycache__").glob("generated.*.marshal"))
    assert _compiled_by_a_check(tmp_path) == 0


@pytest.fixture
def stored_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file in a temporary folder, and a module that has read nothing yet (a new process)."""
    path = tmp_path / "generated.marshal"
    monkeypatch.setattr(generated_code, "generated_path", lambda: str(path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    _new_process(monkeypatch)
    return path


def _new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generated_code, "_stored", None)
    monkeypatch.setattr(generated_code, "_used", {})
    monkeypatch.setattr(generated_code, "_compiled", set())


SOURCE = "def add(a, b=__default_b):\n    return a + b + offset\n"


def _defined(names: dict[str, object]) -> dict[str, object]:
    generated_code.define(SOURCE, names)
    return names


def test_the_code_from_the_file_makes_the_same_function(stored_in: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    first = _defined({"__default_b": 1, "offset": 10})
    generated_code.save()
    assert stored_in.exists()
    _new_process(monkeypatch)
    again = _defined({"__default_b": 2, "offset": 100})  # its own defaults and globals
    assert generated_code._compiled == set()
    assert again["add"](1) == 103 and first["add"](1) == 12  # type: ignore[operator]
    assert again["add"].__code__ == compile(  # type: ignore[attr-defined]
        SOURCE, "<string>", "exec", dont_inherit=True).co_consts[0]


def test_nothing_is_written_where_bytecode_is_not(stored_in: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    _defined({"__default_b": 1, "offset": 10})
    generated_code.save()
    assert not stored_in.exists()


@pytest.mark.parametrize("written", [
    marshal.dumps((b"another bytecode", {SOURCE: marshal.dumps(compile("x = 1", "", "exec"))})),
    b"\x00\x01 not marshal",
])
def test_a_file_for_other_bytecode_or_damaged_is_not_used(
        stored_in: Path, monkeypatch: pytest.MonkeyPatch, written: bytes) -> None:
    stored_in.write_bytes(written)
    names = _defined({"__default_b": 1, "offset": 10})
    assert generated_code._compiled == {SOURCE}
    assert names["add"](1) == 12  # type: ignore[operator]
    generated_code.save()  # and it is replaced by a good one
    _new_process(monkeypatch)
    _defined({"__default_b": 1, "offset": 10})
    assert generated_code._compiled == set()


def test_sources_of_earlier_versions_do_not_pile_up(stored_in: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    old = {f"x{number} = 1": b"" for number in range(generated_code._MOST_KEPT)}
    stored_in.write_bytes(marshal.dumps((generated_code._MAGIC, old)))
    _defined({"__default_b": 1, "offset": 10})
    generated_code.save()
    _new_process(monkeypatch)
    assert generated_code._read(str(stored_in)).keys() == {SOURCE}
