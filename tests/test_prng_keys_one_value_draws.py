"""OPT020 where the second draw's range holds one value (`randint(subkey, (), 0, 1)` for a fixed
coin after `choice(subkey, ...)`, JaxMARL's storm environments, issue #25): it gives the same
number whatever the key, so nothing random reaches a result and the pair is no reuse. The
look-alike drawing from two values (`randint(subkey, (), 0, 2)`) is still found. Both run with
JAX: the one-value draw is the same for every key (JAX's checker still raises on it, which is why
it was reported: issue #25's rule also asks that the draw reach a result), the two-value one is
not."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import finding_line, opt020_findings

SOURCE = '''\
import jax
import jax.numpy as jnp

SPAWNS = jnp.arange(16)


def fixed_coin(key):
    key, subkey = jax.random.split(key)
    position = jax.random.choice(subkey, SPAWNS, shape=())
    coin = jax.random.randint(subkey, shape=(), minval=0, maxval=1)
    return position, coin


def random_coin(key):
    key, subkey = jax.random.split(key)
    position = jax.random.choice(subkey, SPAWNS, shape=())
    coin = jax.random.randint(subkey, (), 0, 2)
    return position, coin
'''


def test_a_draw_of_one_value_is_no_reuse(tmp_path: Path) -> None:
    found = [finding_line(f) for f in opt020_findings(tmp_path, "coins.py", SOURCE)]
    assert found == [SOURCE.splitlines().index("    coin = jax.random.randint(subkey, (), 0, 2)") + 1]


def test_only_the_two_value_draw_depends_on_the_key(tmp_path: Path) -> None:
    (tmp_path / "coins.py").write_text(SOURCE)
    module = runpy.run_path(str(tmp_path / "coins.py"))
    for name, varies in (("fixed_coin", False), ("random_coin", True)):
        coins = {int(np.asarray(module[name](jax.random.key(seed))[1])) for seed in range(16)}
        assert (len(coins) > 1) == varies, name
