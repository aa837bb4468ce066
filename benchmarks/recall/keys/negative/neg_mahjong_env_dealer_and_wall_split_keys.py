# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/nissymori/mahjax/commit/e51ced4c7752b2345814539fa13d69047b05e891 (the fix: `dealer_key, wall_key = jax.random.split(rng)`, the dealer from one, the wall from the other)
# shown: the vmapped reset deals the tables and the checker stays silent with a typed key (OK)
# style: pgx-style JAX game environment: a flax.struct State dataclass, a jittable _init(rng) vmapped over per-env keys, deal from the shuffled wall
"""A four-player tile game: vmapped environment reset."""
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
    dealer_key, wall_key = jax.random.split(rng)
    dealer = jnp.int8(jax.random.randint(dealer_key, (), 0, 4))
    deck = jax.random.permutation(wall_key, jnp.arange(NUM_TILES)) // 4
    hands = deck[: 4 * 13].reshape(4, 13)
    return State(current_player=dealer, deck=deck, hands=hands)


def main() -> None:
    keys = jax.random.split(jax.random.PRNGKey(0), 256)
    states = jax.jit(jax.vmap(_init))(keys)
    print("dealers of the first 8 tables:", states.current_player[:8])
    print("first hand of table 0:", states.hands[0, 0])
    jax.config.update("jax_debug_key_reuse", True)
    _init(jax.random.key(1))
    print("OK")


if __name__ == "__main__":
    main()
