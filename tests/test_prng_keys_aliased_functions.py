"""OPT020 through a function of another project file that the caller imports under a
module-level alias (`ask = ask_cma_strategy`: a short public name kept for a longer one), as
it does through the function itself (issue #25, held-out set 2: an evolution strategy's `ask`
given one key in every generation sampled the same population). An alias of a function that
ignores its key consumes nothing. The programs also run with JAX."""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

import numpy as np

from conftest import run_optlint_in_process as run_optlint

STRATEGY = '''\
import jax


def ask_gaussian(key, mean, sigma):
    return mean + sigma * jax.random.normal(key, (4,))


def ask_fixed(key, mean, sigma):
    return mean + sigma * jax.numpy.ones((4,))


ask = ask_gaussian
ask_again = ask
fixed = ask_fixed
'''

SEARCH = '''\
import jax

from strategy import ask, ask_again, fixed


def generations(key, n):
    key, key_ask = jax.random.split(key)
    population = []
    for _ in range(n):
        key, key_eval = jax.random.split(key)
        population.append(ask(key_ask, 0.0, 1.0))
    return population


def through_two_aliases(key):
    return ask_again(key, 0.0, 1.0), ask_again(key, 1.0, 1.0)


def fixed_twice(key):
    return fixed(key, 0.0, 1.0), fixed(key, 1.0, 1.0)
'''


def _write(tmp_path: Path) -> None:
    (tmp_path / "strategy.py").write_text(STRATEGY)
    (tmp_path / "search.py").write_text(SEARCH)


def test_an_aliased_function_of_another_file_consumes_the_key(tmp_path: Path) -> None:
    _write(tmp_path)
    result = run_optlint("check", "search.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    rows = sorted(f["line"] for f in json.loads(result.stdout))
    # 11: every generation asks with `key_ask`; 16: an alias of the alias; `fixed` draws nothing.
    assert rows == [11, 16]


def test_the_aliases_when_run(tmp_path: Path) -> None:
    _write(tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        namespace = runpy.run_path(str(tmp_path / "search.py"))
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("strategy", None)
    import jax

    population = namespace["generations"](jax.random.PRNGKey(0), 3)
    assert all(np.array_equal(population[0], p) for p in population)  # one draw, three times
    first, second = namespace["through_two_aliases"](jax.random.PRNGKey(0))
    assert np.allclose(first + 1.0, second)
