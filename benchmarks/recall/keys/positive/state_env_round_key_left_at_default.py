# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/nissymori/mahjax/issues/71
# source: https://github.com/nissymori/mahjax/pull/73
# shown: two environments reset with different seeds shuffle bit-identical second walls: the reshuffle draws from the state's default PRNGKey(0), never replaced by init
# style: functional game environment (init / step on a NamedTuple state) as used for RL self-play
import sys
from typing import NamedTuple

import jax
import jax.numpy as jnp

N_TILES = 136


class RoundState(NamedTuple):
    wall: jax.Array
    turn: jax.Array
    rng_key: jax.Array = jax.random.PRNGKey(0)  # expect


def _make_state(wall):
    return RoundState(wall=wall, turn=jnp.int32(0))


def init(key):
    deal_key, next_round_key = jax.random.split(key)  # next_round_key is never stored
    wall = jax.random.permutation(deal_key, N_TILES)
    return _make_state(wall)


def step(state, action, key):
    del key  # the round transition only uses the state's own key
    turn = state.turn + 1 + 0 * action
    end_of_round = turn >= 4
    rng, shuffle_key = jax.random.split(state.rng_key)  # expect
    new_wall = jax.random.permutation(shuffle_key, N_TILES)
    wall = jnp.where(end_of_round, new_wall, state.wall)
    return RoundState(wall=wall, turn=jnp.where(end_of_round, 0, turn), rng_key=rng)


def second_wall(seed):
    state = init(jax.random.PRNGKey(seed))
    rng = jax.random.PRNGKey(seed + 1)
    for _ in range(4):
        rng, act_key, step_key = jax.random.split(rng, 3)
        action = jax.random.randint(act_key, (), 0, 34)
        state = jax.jit(step)(state, action, step_key)  # expect
    return state.wall


if __name__ == "__main__":
    a = second_wall(0)
    b = second_wall(424242)
    print("seed 0 wall[:8]", a[:8], "seed 424242 wall[:8]", b[:8])
    if bool(jnp.all(a == b)):
        print("HAZARD: seeds 0 and 424242 shuffled the identical second wall:", a[:12])
        sys.exit(1)
