"""OPT020 on a key made from a constant seed in a model's method and drawn from through a helper
of the file (issue #25, held-out set 2, maxtext a319be3: `rng = PRNGKey(1234)` then
`random_routing(rng, logits, k)` in an MoE layer): every call of the method makes the same key,
so every layer and every step routes the same way. Beside look-alikes that stay silent: a helper
that never reads its key, a method given its key by the caller. Checked by the real command
line, and the helper run with real JAX (the method's key made as the method makes it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

ROUTING = '''\
import flax.linen as nn
import jax
import jax.numpy as jnp


def random_routing(rng_key, logits, k):
    picked = jax.random.choice(rng_key, logits.shape[-1], shape=(k,))
    return jnp.take(logits, picked, axis=-1), picked


class MoE(nn.Module):
    k: int = 2

    def get_topk(self, logits):
        rng = jax.random.PRNGKey(1234)
        return random_routing(rng, logits, self.k)

    @nn.compact
    def __call__(self, x):
        return self.get_topk(x)
'''

# The helper never reads its key: nothing is drawn from the constant key.
ROUTING_UNREAD = ROUTING.replace(
    "    picked = jax.random.choice(rng_key, logits.shape[-1], shape=(k,))\n",
    "    picked = jnp.argsort(logits, axis=-1)[..., :k]\n")

# The caller gives the key: the method makes none.
ROUTING_GIVEN = ROUTING.replace(
    "    def get_topk(self, logits):\n        rng = jax.random.PRNGKey(1234)\n",
    "    def get_topk(self, logits):\n        rng = self.make_rng('routing')\n")


def test_a_constant_key_drawn_through_a_helper_in_a_model_method(tmp_path: Path) -> None:
    assert opt20(tmp_path, ROUTING) == [16]


def test_a_helper_that_never_reads_the_key_is_quiet(tmp_path: Path) -> None:
    assert opt20(tmp_path, ROUTING_UNREAD) == []


def test_a_key_the_caller_gives_is_quiet(tmp_path: Path) -> None:
    assert opt20(tmp_path, ROUTING_GIVEN) == []


def test_every_call_routes_alike() -> None:
    """The helper as written, given the key the method makes on each of two layers' logits:
    the same experts are picked for both."""
    pytest.importorskip("jax")
    import jax

    helper = ROUTING.split("\n\n\nclass MoE")[0].replace("import flax.linen as nn\n", "")
    namespace: dict[str, Any] = {}
    exec(compile(helper, "routing.py", "exec"), namespace)
    layer1 = jax.random.normal(jax.random.PRNGKey(1), (4, 8))
    layer2 = jax.random.normal(jax.random.PRNGKey(2), (4, 8))
    _, first = namespace["random_routing"](jax.random.PRNGKey(1234), layer1, 2)
    _, second = namespace["random_routing"](jax.random.PRNGKey(1234), layer2, 2)
    assert bool((first == second).all())


def opt20(tmp_path: Path, source: str) -> list[int]:
    return opt020_lines(tmp_path, "moe.py", source)
