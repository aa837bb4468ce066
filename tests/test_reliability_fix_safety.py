"""Fixes that must never change what correct code means: where the added import goes, the
arguments a replacement takes, comments inside rewritten calls, odd line endings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reliability_helpers import run_cli
from stub_libraries import run_cells_with_stubs, run_with_stubs


def fixed(monkeypatch: pytest.MonkeyPatch, folder: Path, name: str, text: str,
          *options: str) -> str:
    path = folder / name
    path.write_bytes(text.encode("utf-8"))
    (folder / "pyproject.toml").write_text("[tool.optlint]\n")
    run = run_cli(monkeypatch, folder, "check", "--fix", "--jobs", "1", *options, name)
    assert "error" not in run.stderr, run.stderr
    return path.read_bytes().decode("utf-8")


def runs(folder: Path, name: str) -> None:
    done = run_with_stubs(folder / name)
    assert done.returncode == 0, done.stderr


LATER_IMPORT = """\
import jax
import optax
from equinox import nn

model = nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
opt_state = optax.adam(1e-3).init(model)
import os
print(os.sep)
"""
TYPE_CHECKING_ONLY = """\
from typing import TYPE_CHECKING

import jax
import optax
from equinox import nn

if TYPE_CHECKING:
    import equinox as eqx

model = nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
opt_state = optax.adam(1e-3).init(model)
"""
INSIDE_A_FUNCTION = """\
import jax
import optax
from equinox import nn


def save(model):
    import equinox as eqx
    eqx.tree_serialise_leaves("model.eqx", model)


model = nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
opt_state = optax.adam(1e-3).init(model)
"""


@pytest.mark.parametrize("text", [LATER_IMPORT, TYPE_CHECKING_ONLY, INSIDE_A_FUNCTION],
                         ids=["later-import", "type-checking", "inside-a-function"])
def test_the_equinox_name_is_bound_where_the_fix_uses_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    result = fixed(monkeypatch, tmp_path, "train.py", text)
    assert "eqx.filter(model, eqx.is_array)" in result
    runs(tmp_path, "train.py")


def notebook(cells: list[str]) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                                  "execution_count": None, "source": cell} for cell in cells],
                       "metadata": {"language_info": {"name": "python"}}, "nbformat": 4,
                       "nbformat_minor": 5}, indent=1)


def test_a_notebook_gets_the_import_no_later_than_the_cell_that_uses_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cells = ["import jax\nimport optax\nfrom equinox import nn",
             "model = nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))\n"
             "opt_state = optax.adam(1e-3).init(model)",
             "import os\nprint(os.sep)"]
    result = json.loads(fixed(monkeypatch, tmp_path, "train.ipynb", notebook(cells)))
    sources = ["".join(cell["source"]) for cell in result["cells"]]
    assert "eqx.filter(model, eqx.is_array)" in sources[1]
    done = run_cells_with_stubs(sources, tmp_path)
    assert done.returncode == 0, done.stderr


POSITIONAL_HAS_AUX = """\
import equinox as eqx
import jax
import jax.numpy as jnp


def loss(model, x):
    return jnp.sum(model(x)), 0


model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
(value, aux), grads = jax.value_and_grad(loss, 0, True)(model, jnp.ones(2))
"""
POSITIONAL_ARGNUMS = """\
import equinox as eqx
import jax
import jax.numpy as jnp


def loss(x, model):
    return jnp.sum(model(x))


model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
grads = jax.grad(loss, 1)(jnp.ones(2), model)
"""


def test_opt006_does_not_keep_positional_arguments_the_replacement_rejects(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = fixed(monkeypatch, tmp_path, "train.py", POSITIONAL_HAS_AUX, "--select", "OPT006")
    assert "filter_value_and_grad(loss, 0, True)" not in result
    assert result in (POSITIONAL_HAS_AUX, POSITIONAL_HAS_AUX.replace(
        "jax.value_and_grad(loss, 0, True)", "eqx.filter_value_and_grad(loss, has_aux=True)"))


def test_opt006_reads_positional_argnums(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "train.py").write_text(POSITIONAL_ARGNUMS)
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", "--select", "OPT006",
                  "--no-cache", "--output-format", "json", "train.py")
    findings = json.loads(run.stdout)
    assert [f["code"] for f in findings] == ["OPT006"]
    assert findings[0]["fix"] is None  # filter_grad differentiates the first argument only
    assert "`model`" in findings[0]["message"]


KEY_REUSE = """\
import jax
\f
def sample(key):
    x = jax.random.normal(key, (2,))
    \f
    y = jax.random.normal(key, (2,))
    return x + y


\f
key = jax.random.PRNGKey(0)
noise = jax.random.normal(key, (2,))
more = jax.random.uniform(key, (2,))
"""


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_opt020_fix_after_a_form_feed_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           newline: str) -> None:
    text = KEY_REUSE.replace("\n", newline)
    result = fixed(monkeypatch, tmp_path, "keys.py", text, "--select", "OPT020",
                   "--unsafe-fixes")
    assert result.count("= jax.random.split(key)") == 2
    assert result.replace("\r\n", "").count("\n") == 0 if newline == "\r\n" else "\r" not in result
    runs(tmp_path, "keys.py")


GLOBAL_KEY = """\
import jax

key = jax.random.PRNGKey(0)


def sample():
    x = jax.random.normal(key, (2,))
    y = jax.random.normal(key, (2,))
    return x + y


sample()
"""


def test_opt020_does_not_make_an_outer_key_local(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fixed(monkeypatch, tmp_path, "keys.py", GLOBAL_KEY, "--select", "OPT020", "--unsafe-fixes")
    runs(tmp_path, "keys.py")  # `key, subkey = ...` in sample() would raise UnboundLocalError


def comment_places(text: str) -> dict[str, str]:
    """Each comment, and the code it belongs to: its line's code, or the next line's for a
    comment on a line of its own."""
    lines = [line.strip() for line in text.splitlines()]
    places = {}
    for number, line in enumerate(lines):
        if "#" not in line:
            continue
        code, comment = line.split("#", 1)
        if code.strip():
            places[comment.strip()] = code.strip().rstrip(",")
        else:
            following = next((rest for rest in lines[number + 1:] if not rest.startswith("#")), "")
            places[comment.strip()] = following.split("#")[0].strip().rstrip(",")
    return places


CHAINS_WITH_COMMENTS = {
    "OPT008": ("""\
import optax

optimizer = optax.chain(
    # the optimizer
    optax.adam(1e-3),  # main optimizer
    optax.clip_by_global_norm(1.0),  # clip spikes
)
""", {"the optimizer": "optax.adam(1e-3)", "main optimizer": "optax.adam(1e-3)",
      "clip spikes": "optax.clip_by_global_norm(1.0)"}),
    "OPT017": ("""\
import optax
from optax import contrib

optimizer = optax.chain(
    contrib.reduce_on_plateau(patience=5),  # plateau
    # adam normalises
    optax.adam(1e-3)  # main optimizer
)
""", {"plateau": "contrib.reduce_on_plateau(patience=5)", "adam normalises": "optax.adam(1e-3)",
      "main optimizer": "optax.adam(1e-3)"}),
    "OPT013": ("""\
import jax.numpy as jnp
import optax

params = {"encoder": jnp.ones(3), "head": jnp.zeros(3)}
frozen = {"encoder": True, "head": False}
optimizer = optax.chain(
    optax.freeze(frozen),  # keep the encoder
    # decoupled decay
    optax.adamw(1e-3, weight_decay=0.1),  # main optimizer
)
opt_state = optimizer.init(params)
""", {"keep the encoder": "optax.freeze(frozen)", "decoupled decay": "optax.adamw(1e-3, weight_decay=0.1)",
      "main optimizer": "optax.adamw(1e-3, weight_decay=0.1)"}),
    "OPT004": ("""\
# optlint-args: --optax-version 0.2.8
import optax

optimizer = optax.MultiSteps(
    optax.chain(
        optax.adam(1e-3),  # main optimizer
        optax.zero_nans(),  # skip NaN batches
    ),
    every_k_schedule=4,  # accumulate
)
""", {"main optimizer": "optax.adam(1e-3)", "accumulate": "every_k_schedule=4"}),
}


@pytest.mark.parametrize("code", sorted(CHAINS_WITH_COMMENTS))
def test_comments_travel_with_their_argument(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             code: str) -> None:
    text, expected = CHAINS_WITH_COMMENTS[code]
    assert {c: comment_places(text)[c] for c in expected} == expected
    options = ["--select", code, "--unsafe-fixes"]
    if code == "OPT004":
        options += ["--optax-version", "0.2.8"]
    result = fixed(monkeypatch, tmp_path, "chain.py", text, *options)
    assert result != text
    places = comment_places(result)
    assert {c: places.get(c) for c in expected} == expected
    assert set(comment_places(text)) <= set(places)  # no comment lost
    runs(tmp_path, "chain.py")


def test_one_broken_fix_does_not_cost_the_others_of_its_round(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from optlint import engine
    from reliability_helpers import FIXABLE, FIXED_LINE

    lint_text = engine.Linter.lint_text

    def with_a_broken_fix(self, text, filename, linted=None):  # type: ignore[no-untyped-def]
        result = lint_text(self, text, filename, linted)
        result.diagnostics = [
            replace(d, fix=replace(d.fix, edits=tuple(replace(e, content="((")
                                                      for e in d.fix.edits)))
            if d.code == "OPT100" and d.fix is not None else d for d in result.diagnostics]
        return result

    monkeypatch.setattr(engine.Linter, "lint_text", with_a_broken_fix)
    path = tmp_path / "train.py"
    path.write_text(FIXABLE + "steps = 10  # noqa: OPT008\n")
    run = run_cli(monkeypatch, tmp_path, "check", "--fix", "--jobs", "1", "train.py")
    assert run.exit_code == 2 and "a fix produced invalid code" in run.stderr
    assert FIXED_LINE in path.read_text()
