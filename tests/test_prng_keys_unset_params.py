"""OPT020 where the only rebinding of a key sits on a branch guarded by a parameter that no
call in the project gives (issue #25; ManifoldRG/MultiNet e170d5c: `evaluate_model(...,
max_samples=None)` shadowed `key` under `if max_samples is not None and ...`, and every batch
sampled with the one key). The parameter is `None` in every run the project makes, so the
branch never runs and every iteration draws from the same key: found. A call that gives the
parameter, a body that rebinds it, a spread `**options`, or a method another file may call
leaves the branch possible: silent, as before. Run with JAX's key-reuse checker, the program
raises exactly where the finding is."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import pytest

from conftest import opt020_findings, opt020_lines

EVALUATE = '''\
import jax
import jax.numpy as jnp


def evaluate(key, batches, refresh=None):
    outs = []
    for batch in batches:
        if refresh is not None and len(outs) % refresh == 0:
            key = jax.random.fold_in(key, len(outs))
        outs.append(batch + jax.random.normal(key, batch.shape))
    return outs


def main(options):
    return evaluate(jax.random.key(0), [jnp.zeros(3)] * 3{call})
'''

# (what the one call adds, the lines found)
CALLS = [
    ("", [10]),  # `refresh` never given: the branch never runs
    (", refresh=1", []),
    (", 1", []),
    (", **options", []),  # may give `refresh`
    (", *options", []),
]


@pytest.mark.parametrize(("call", "expected"), CALLS)
def test_a_rebinding_under_a_parameter_no_call_gives(tmp_path: Path, call: str,
                                                      expected: list[int]) -> None:
    assert opt020_lines(tmp_path, "evaluate.py", EVALUATE.format(call=call)) == expected


def test_the_message_says_why_the_rebinding_never_runs(tmp_path: Path) -> None:
    [finding] = opt020_findings(tmp_path, "evaluate.py", EVALUATE.format(call=""))
    assert ("the branch on `refresh` that rebinds `key` never runs: no call gives `refresh`, "
            "which defaults to `None`") in finding["message"]


def test_the_reuse_is_what_jax_raises_on(tmp_path: Path) -> None:
    """The finding's program raises under the checker; given `refresh=1`, it does not."""
    path = tmp_path / "evaluate.py"
    path.write_text(EVALUATE.format(call=", refresh=options"))
    main = runpy.run_path(str(path))["main"]
    with jax.debug_key_reuse(True):
        main(1)  # the branch runs on each iteration: a new key each time
        with pytest.raises(jax.errors.KeyReuseError):
            main(None)


def test_a_parameter_the_body_rebinds_is_not_known(tmp_path: Path) -> None:
    source = EVALUATE.format(call="").replace(
        "    outs = []\n", "    outs = []\n    refresh = refresh or 2\n")
    assert opt020_lines(tmp_path, "evaluate.py", source) == []


def test_a_function_nothing_calls_is_not_known(tmp_path: Path) -> None:
    """A function of a library no file calls: its users may give the parameter."""
    source = EVALUATE.format(call="").split("\n\ndef main")[0] + "\n"
    assert opt020_lines(tmp_path, "evaluate.py", source) == []


METHOD = '''\
import jax
import jax.numpy as jnp


class Evaluator:
    def evaluate(self, key, batches, refresh=None):
        outs = []
        for batch in batches:
            if refresh is not None:
                key = jax.random.fold_in(key, len(outs))
            outs.append(batch + jax.random.normal(key, batch.shape))
        return outs


def main():
    return Evaluator().evaluate(jax.random.key(0), [jnp.zeros(3)] * 3)
'''


def test_a_method_no_call_gives_the_parameter(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "evaluator.py", METHOD) == [11]


def test_a_method_another_file_names_is_not_known(tmp_path: Path) -> None:
    """Another project file may call the method on an object it got, giving `refresh`."""
    (tmp_path / "run.py").write_text(
        "def run(ev, key, batches):\n    return ev.evaluate(key, batches, refresh=2)\n")
    assert opt020_lines(tmp_path, "evaluator.py", METHOD) == []
