"""`check --add-noqa` on real files: every finding suppressed where it starts, comments and
codes kept, line endings kept, lines that cannot take a comment left alone, idempotent."""

from __future__ import annotations

from pathlib import Path

from conftest import run_optlint_in_process as run_optlint

SOURCE = (
    "import equinox as eqx\n"
    "import optax\n"
    "\n"
    "model = eqx.nn.MLP(2, 1, 8, 2, key=None)\n"
    "state = optax.adam(1e-3).init(model)\n"
    "other = optax.adam(1e-3).init(model)  # keep this comment\n"
    "third = optax.adam(1e-3).init(model)  # noqa: E501\n"
    "last = optax.adam(1e-3).init(model) if model else \\\n"
    "    None\n"
)


def test_add_noqa_suppresses_every_finding_and_keeps_comments(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_bytes(SOURCE.replace("\n", "\r\n").encode())
    before = run_optlint("check", "train.py", "--no-cache", cwd=tmp_path)
    assert before.stdout.count("OPT003") == 4, before.stdout

    done = run_optlint("check", "train.py", "--add-noqa", "--no-cache", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Added 3 noqa directives in 1 file." in done.stderr
    assert "train.py:8: the line ends inside a string or a continuation" in done.stderr
    data = (tmp_path / "train.py").read_bytes()
    assert data.count(b"\r\n") == SOURCE.count("\n") and b"\n" not in data.replace(b"\r\n", b"")
    text = data.decode().replace("\r\n", "\n")
    assert "state = optax.adam(1e-3).init(model)  # noqa: OPT003\n" in text
    assert "init(model)  # keep this comment  # noqa: OPT003\n" in text
    assert "init(model)  # noqa: E501, OPT003\n" in text
    assert "init(model) if model else \\\n" in text  # a backslash continuation: untouched

    after = run_optlint("check", "train.py", "--no-cache", cwd=tmp_path)
    assert after.stdout.count("OPT003") == 1  # the continued line only

    again = run_optlint("check", "train.py", "--add-noqa", "--no-cache", cwd=tmp_path)
    assert "Added 0 noqa directives in 0 files." in again.stderr
    assert (tmp_path / "train.py").read_bytes() == data


def test_add_noqa_refuses_fix(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(SOURCE)
    done = run_optlint("check", "train.py", "--add-noqa", "--fix", cwd=tmp_path)
    assert done.returncode == 2 and "--add-noqa works on files" in done.stderr
    assert (tmp_path / "train.py").read_text() == SOURCE
