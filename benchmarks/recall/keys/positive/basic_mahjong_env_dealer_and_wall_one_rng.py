# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/nissymori/mahjax/commit/e51ced4c7752b2345814539fa13d69047b05e891 ("split key", squashed into fade6de, PR #73: `_init(rng)` drew the dealer `jax.random.randint(rng, (), 0, 4)` and shuffled the wall `jax.random.permutation(rng, jnp.arange(136))` with one key; the fix draws them from `dealer_key, wall_key = jax.random.split(rng)`, "so the dealer is not a deterministic function of the wall")
# shown: the vmapped reset deals 256 tables (dealer and wall both reach the state); with a typed key JAX's key-reuse checker raises KeyReuseError at the wall shuffle (HAZARD, exit 1)
# style: pgx-style JAX game environment: a flax.struct State dataclass, a jittable _init(rng) vmapped over per-env keys, deal from the shuffled wall
"""A four-player tile game: vmapped environment reset."""
import sys

import jax
import jax.numpy as jnp
from flax import struct

NUM_TILES = 136


@struct.dataclass
class State:
    current_player: jnp.ndarray
    deck: jnp.ndarray
    hands: jnp.ndarray


def _init(rng) -> State:
    rng, _ = jax.random.split(rng)
    dealer = jnp.int8(jax.random.randint(rng, (), 0, 4))  # expect
    deck = jax.random.permutation(rng, jnp.arange(NUM_TILES)) // 4  # expect
    hands = deck[: 4 * 13].reshape(4, 13)
    return State(current_player=dealer, deck=deck, hands=hands)


def main() -> None:
    keys = jax.random.split(jax.random.PRNGKey(0), 256)
    states = jax.jit(jax.vmap(_init))(keys)
    print("dealers of the first 8 tables:", states.current_player[:8])
    print("first hand of table 0:", states.hands[0, 0])
    jax.config.update("jax_debug_key_reuse", True)
    try:
        _init(jax.random.key(1))
    except Exception as err:  # jax.errors.KeyReuseError
        print("HAZARD:", type(err).__name__, str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse")


if __name__ == "__main__":
    main()
