# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/nissymori/mahjax/pull/72
# shown: runs with jax_debug_key_reuse on; init stores its split-off key in the state, the reshuffle advances that key, and seeds 0 and 424242 shuffle different second walls; prints OK
# style: functional game environment (init / step on a NamedTuple state) as used for RL self-play
from typing import NamedTuple

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)

N_TILES = 136


class RoundState(NamedTuple):
    wall: jax.Array
    turn: jax.Array
    rng_key: jax.Array


def init(key):
    deal_key, next_round_key = jax.random.split(key)
    wall = jax.random.permutation(deal_key, N_TILES)
    return RoundState(wall=wall, turn=jnp.int32(0), rng_key=next_round_key)


def step(state, action, key):
    del key  # the round transition only uses the state's own key
    turn = state.turn + 1 + 0 * action
    end_of_round = turn >= 4
    rng, shuffle_key = jax.random.split(state.rng_key)
    new_wall = jax.random.permutation(shuffle_key, N_TILES)
    wall = jnp.where(end_of_round, new_wall, state.wall)
    return RoundState(wall=wall, turn=jnp.where(end_of_round, 0, turn), rng_key=rng)


def second_wall(seed):
    state = init(jax.random.key(seed))
    rng = jax.random.key(seed + 1)
    for _ in range(4):
        rng, act_key, step_key = jax.random.split(rng, 3)
        action = jax.random.randint(act_key, (), 0, 34)
        state = jax.jit(step)(state, action, step_key)
    return state.wall


if __name__ == "__main__":
    a = second_wall(0)
    b = second_wall(424242)
    assert not bool(jnp.all(a == b))
    print("OK")
