# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/jax-ml/jax/issues/18950
# shown: in every one of 50 rounds both "independent" categorical variables were drawn with the same Gumbel noise (the comprehension passes one key to each variable's draw), then KeyReuseError under jax_debug_key_reuse
# style: Monte-Carlo experiment: a Python loop of rounds, each drawing one categorical per variable in a list comprehension
import sys

import jax
import jax.numpy as jnp

N = 10


def draw_round(key, joint_logits):
    return [jax.random.categorical(key, logits) for logits in joint_logits]  # expect


def experiment(key, joint_logits, n_rounds=50):
    draws = []
    for _ in range(n_rounds):
        draws.append(draw_round(key, joint_logits))
        key, _ = jax.random.split(key)
    return draws


if __name__ == "__main__":
    logits_x = jax.random.uniform(jax.random.PRNGKey(120), (N,))
    logits_y = jax.random.uniform(jax.random.PRNGKey(845), (N,))
    joint = jnp.stack([logits_x, logits_y])
    key = jax.random.PRNGKey(0)
    shared = 0
    for x, y in experiment(key, joint):
        gumbel = jax.random.gumbel(key, (N,))
        shared += int(x == jnp.argmax(logits_x + gumbel)) * int(y == jnp.argmax(logits_y + gumbel))
        key, _ = jax.random.split(key)
    print("rounds where X and Y used one Gumbel vector:", shared)
    if shared == 50:
        print("HAZARD: X and Y were drawn with identical Gumbel noise in all 50 rounds")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        draw_round(jax.random.key(0), joint)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
