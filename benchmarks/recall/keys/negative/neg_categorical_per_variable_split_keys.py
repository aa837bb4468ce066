# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/jax-ml/jax/issues/18950
# shown: runs with jax_debug_key_reuse on; each round splits its key into one subkey per variable, so X and Y no longer share Gumbel noise; prints OK
# style: Monte-Carlo experiment: a Python loop of rounds, each drawing one categorical per variable in a list comprehension
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)

N = 10


def draw_round(key, joint_logits):
    keys = jax.random.split(key, joint_logits.shape[0])
    return [jax.random.categorical(k, logits) for k, logits in zip(keys, joint_logits, strict=True)]


def experiment(key, joint_logits, n_rounds=50):
    draws = []
    for _ in range(n_rounds):
        key, round_key = jax.random.split(key)
        draws.append(draw_round(round_key, joint_logits))
    return draws


if __name__ == "__main__":
    logits_x = jax.random.uniform(jax.random.key(120), (N,))
    logits_y = jax.random.uniform(jax.random.key(845), (N,))
    joint = jnp.stack([logits_x, logits_y])
    draws = jnp.array(experiment(jax.random.key(0), joint))
    assert draws.shape == (50, 2)
    assert len(set(draws[:, 0].tolist())) > 1 and len(set(draws[:, 1].tolist())) > 1
    print("OK")
