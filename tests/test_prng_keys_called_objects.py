"""OPT020 on a library object called with a key (issue #25, class 5, a row of
`key_consumers.py`): numpyro's `Predictive(model, ...)(key, ...)` runs the model seeded with the
key, so the prior predictive and `mcmc.run` given one key draw from the same bits. Checked by
the real command line; run with real numpyro where it is installed, to show the two calls of
one `Predictive` given one key return the same draws (and differ given split keys)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

NOTEBOOK_CELLS = '''\
from jax import random
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS, Predictive

RNG = random.PRNGKey(0)


def model(n):
    loc = numpyro.sample("loc", dist.Normal())
    with numpyro.plate("n", n):
        numpyro.sample("x", dist.Normal(loc))


prior = Predictive(model, num_samples=4)
prior_samples = prior(RNG, 3)
mcmc = MCMC(NUTS(model), num_warmup=5, num_samples=5, progress_bar=False)
mcmc.run(RNG, 3)
'''

# The look-alike: the key is split first, one key for each.
NOTEBOOK_SPLIT = NOTEBOOK_CELLS.replace(
    "RNG = random.PRNGKey(0)", "PRIOR_RNG, MCMC_RNG = random.split(random.PRNGKey(0))").replace(
    "prior(RNG, 3)", "prior(PRIOR_RNG, 3)").replace("mcmc.run(RNG, 3)", "mcmc.run(MCMC_RNG, 3)")


def _prior_draws(source: str, key_name: str) -> tuple[Any, Any]:
    """Two prior predictive draws: one from the program's key, one from `key_name` again."""
    pytest.importorskip("numpyro")
    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source.split("mcmc = ")[0], "program.py", "exec"), namespace)
    again = namespace["prior"](namespace[key_name], 3)
    return namespace["prior_samples"]["loc"], again["loc"]


def test_a_predictive_called_with_the_key_mcmc_runs_with(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "cells.py", NOTEBOOK_CELLS) == [18]


def test_a_predictive_and_mcmc_given_split_keys_are_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "cells.py", NOTEBOOK_SPLIT) == []


def test_a_predictive_given_one_key_twice_draws_the_same() -> None:
    first, again = _prior_draws(NOTEBOOK_CELLS, "RNG")
    assert bool((first == again).all())
    first, other = _prior_draws(NOTEBOOK_SPLIT, "MCMC_RNG")
    assert not bool((first == other).all())
