"""OPT020 for a key an object holds that a method of its class sets anew besides `__init__`
(issue #25; numpyro PR #479: `sampler.warmup(key)` stored the warmup state, and every
`sampler.sample(n)` ran its chain from that state's key). Two calls of the drawing method with
no call of the setter between them draw the same numbers: found. The setter called between
them, called by the class itself, or the drawing method moving the key on: silent. numpyro's
`fori_collect(lower, upper, kernel, init_val)` runs the chain from the key its state holds
(a row measured with numpyro 0.22.0). Run with JAX, the reuse is where the finding is."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax.numpy as jnp
import pytest

from conftest import opt020_lines

AGENT = '''\
import jax
import jax.numpy as jnp


class Agent:
    def __init__(self):
        self.key = None

    def reset(self, seed):
        self.key = jax.random.PRNGKey(seed)

    def act(self, logits):
        return jax.random.categorical(self.key, logits, shape=(8,))


def episode(logits):
    agent = Agent()
    agent.reset(0)
    first = agent.act(logits)
    second = agent.act(logits)
    return first, second
'''


def test_two_draws_with_no_setter_between(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "agent.py", AGENT) == [20]


def test_the_two_draws_are_equal(tmp_path: Path) -> None:
    path = tmp_path / "agent.py"
    path.write_text(AGENT)
    first, second = runpy.run_path(str(path))["episode"](jnp.zeros(5))
    assert bool(jnp.array_equal(first, second))


LOOK_ALIKES = [
    # the setter runs between the two draws
    ("    second = agent.act(logits)\n", "    agent.reset(1)\n    second = agent.act(logits)\n"),
    # the class runs the setter itself: an object's user cannot see when
    ("        return jax.random.categorical(self.key, logits, shape=(8,))\n",
     "        self.reset(3)\n        return jax.random.categorical(self.key, logits, shape=(8,))\n"),
    # the drawing method moves the key on
    ("        return jax.random.categorical(self.key, logits, shape=(8,))\n",
     "        self.key, sub = jax.random.split(self.key)\n"
     "        return jax.random.categorical(sub, logits, shape=(8,))\n"),
]


@pytest.mark.parametrize(("old", "new"), LOOK_ALIKES)
def test_look_alikes_stay_silent(tmp_path: Path, old: str, new: str) -> None:
    assert old in AGENT
    assert opt020_lines(tmp_path, "agent.py", AGENT.replace(old, new)) == []


COLLECT = '''\
import jax
from numpyro.util import fori_collect


def two_runs(init_kernel, kernel, params, rng_key, n):
    state = init_kernel(params, num_warmup=10, rng_key=rng_key)
    first = fori_collect(0, n, kernel, state, progbar=False)
    second = fori_collect(0, n, kernel, state, progbar=False)
    return first, second
'''


def test_two_chains_run_from_one_state(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "chains.py", COLLECT) == [8]
    threaded = COLLECT.replace(
        "    first = fori_collect(0, n, kernel, state, progbar=False)\n",
        "    first, state = fori_collect(0, n, kernel, state, progbar=False, "
        "return_last_val=True)\n")
    assert opt020_lines(tmp_path, "chains.py", threaded) == []


def test_numpyro_runs_equal_chains_from_one_state() -> None:
    """The row's fact: two `fori_collect` runs from one NUTS state give the same samples."""
    pytest.importorskip("numpyro")
    import jax
    import numpyro
    import numpyro.distributions as dist
    from numpyro.infer.hmc import hmc
    from numpyro.infer.util import initialize_model
    from numpyro.util import fori_collect

    def model(y):  # type: ignore[no-untyped-def]
        mu = numpyro.sample("mu", dist.Normal(0, 1))
        numpyro.sample("obs", dist.Normal(mu, 1), obs=y)

    y = jnp.array([0.3, 1.2])
    info = initialize_model(jax.random.PRNGKey(1), model, model_args=(y,))
    init_kernel, sample_kernel = hmc(info.potential_fn, algo="NUTS")
    state = init_kernel(info.param_info, num_warmup=5, rng_key=jax.random.PRNGKey(2))
    runs = [fori_collect(0, 10, sample_kernel, state, progbar=False,
                         transform=lambda s: s.z["mu"]) for _ in range(2)]
    assert bool(jnp.array_equal(*runs))
