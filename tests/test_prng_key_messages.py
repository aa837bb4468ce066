"""OPT020's message names the key's path (issue #25): where the key was made, the first consumer
and the second, with their lines (a notebook's as cell and line), the pair JAX's key-reuse checker
raises on, and whether the draws are identical or correlated. Checked through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import opt020_findings, run_optlint_in_process as run_optlint
from test_notebooks import code, markdown, notebook, write


def _notebook_findings(folder: Path, *cells: dict) -> list[dict]:
    write(folder, notebook(*cells))
    result = run_optlint("check", "nb.ipynb", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=folder)
    return json.loads(result.stdout)


def test_a_notebook_message_names_the_cells_and_lines(tmp_path: Path) -> None:
    [finding] = _notebook_findings(
        tmp_path, markdown("# keys"), code(["import jax\n", "key = jax.random.PRNGKey(0)"], 1),
        code(["noise = jax.random.normal(key, (3,))"], 2),
        code(["x = 1\n", "other = jax.random.uniform(key, (3,))\n", "print(noise + other)"], 3))
    # Cells count the markdown one, as the finding's own `cell` does.
    assert finding["cell"] == 4
    assert "(made at cell 2, line 2)" in finding["message"]
    assert "`jax.random.normal(key, (3,))` (cell 3, line 1)" in finding["message"]
    assert "\x00" not in finding["message"]


def test_the_pair_named_is_the_key_object_consumed_twice(tmp_path: Path) -> None:
    """evojax's SNN notebook: `run` given one key in two cells, and between them a function that
    makes its own key from the same literal seed. The checker raises on the two `run` calls."""
    init = ["import jax\n", "def init():\n", "    key = jax.random.PRNGKey(0)\n",
            "    return jax.random.normal(key, (3,))\n", "\n",
            "@jax.jit\n", "def run(key, w):\n", "    return w * jax.random.uniform(key, (3,))"]
    warm = ["key = jax.random.PRNGKey(0)\n", "w = init()\n", "run(key, w)"]
    timed = ["w = init()\n", "out = run(key, w)\n", "print(out)"]
    findings = _notebook_findings(tmp_path, code(init, 1), code(warm, 2), code(timed, 3))
    [last] = [found for found in findings if found["cell"] == 3]
    assert "`run(key, w)` (cell 2, line 3)" in last["message"], last["message"]
    assert "init()" not in last["message"]
    first = last["roles"]["first_call"]
    assert (first["cell"], first["line"], first["text"]) == (2, 3, "run(key, w)")


def test_a_key_made_from_a_literal_seed_in_the_loop(tmp_path: Path) -> None:
    source = ("import jax\n"
              "for size in (2, 4):\n"
              "    rng = jax.random.PRNGKey(123)\n"
              "    rng, sub = jax.random.split(rng)\n"
              "    print(jax.random.normal(sub, (size,)))\n")
    [finding] = opt020_findings(tmp_path, "loop.py", source)
    assert finding["message"].startswith(
        "`rng` is made from the seed 123 again (at line 3) in every iteration of the loop"), \
        finding["message"]
    assert "never reassigns" not in finding["message"]


def test_a_key_made_before_the_loop_is_never_reassigned(tmp_path: Path) -> None:
    source = ("import jax\n"
              "def noise(rng, steps):\n"
              "    for _ in range(steps):\n"
              "        print(jax.random.normal(rng, (3,)))\n")
    [finding] = opt020_findings(tmp_path, "loop.py", source)
    assert "`rng` (the parameter at line 2)" in finding["message"]
    assert "the loop never reassigns it" in finding["message"]


def test_identical_or_correlated_draws_are_told_apart(tmp_path: Path) -> None:
    source = ("import jax\n"
              "def f(key):\n"
              "    a = jax.random.normal(key, (3,))\n"
              "    b = jax.random.normal(key, (3,))\n"
              "    c = jax.random.uniform(key, (3,))\n"
              "    return a + b + c\n")
    same, other = sorted(opt020_findings(tmp_path, "draws.py", source),
                         key=lambda found: found["line"])
    assert "(the parameter at line 2)" in same["message"]
    assert "identical samples" in same["message"]
    assert "`normal` and `uniform` turn the same random bits" in other["message"]
    assert "correlated samples" in other["message"]


def test_a_seed_of_two_flax_inits_is_named_as_written(tmp_path: Path) -> None:
    """rebayes' notebooks: the seed was shown with the marker its flax keys are followed under."""
    define = ["import jax\n", "import flax.linen as nn\n", "\n", "class MLP(nn.Module):\n",
              "    @nn.compact\n", "    def __call__(self, x):\n",
              "        return nn.Dense(2)(x)\n"]
    first = ["x = jax.numpy.ones((1, 2))\n", "key = jax.random.PRNGKey(314)\n",
             "model = MLP()\n", "params = model.init(key, x)\n", "print(params)"]
    again = ["key = jax.random.PRNGKey(314)\n", "params = model.init(key, x)\n", "print(params)"]
    [finding] = _notebook_findings(tmp_path, code(define, 1), code(first, 2), code(again, 3))
    assert "is made from the seed 314 at cell 3, line 1, like the key" in finding["message"], \
        finding["message"]
    assert "\x00" not in finding["message"]
