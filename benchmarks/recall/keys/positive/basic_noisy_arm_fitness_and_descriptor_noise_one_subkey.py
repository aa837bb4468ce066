# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/adaptive-intelligent-robotics/QDax/commit/632ff41875b174f1c772b1224e864bf370f29ab2 ("fix keymanagement in noisy arm ...": `noisy_arm_scoring_function` split `random_key, subkey` once and drew the fitness noise `normal(subkey, fitnesses.shape)` and the descriptor noise `normal(subkey, descriptors.shape)`; the fix splits `f_subkey, d_subkey`)
# shown: each offspring's fitness noise equals the first descriptor-noise numbers of the batch (prefix-identical draws, HAZARD), and with a typed key JAX's key-reuse checker raises KeyReuseError (exit 1)
# style: quality-diversity library: a planar-arm task, a vmapped scoring function returning (fitness, descriptor, extra, key), a MAP-Elites-like loop that scores random offspring
"""Noisy planar-arm scoring for a MAP-Elites style loop."""
import sys
from functools import partial

import jax
import jax.numpy as jnp


def arm(params):
    """Fitness = -variance of joint angles, descriptor = end-effector position."""
    angles = params * 2 * jnp.pi
    cum = jnp.cumsum(angles)
    x = jnp.sum(jnp.cos(cum)) / params.shape[0]
    y = jnp.sum(jnp.sin(cum)) / params.shape[0]
    return -jnp.var(angles), jnp.stack([x, y]) / 2 + 0.5


def noisy_arm_scoring_function(params, random_key, fit_variance, desc_variance):
    fitnesses, descriptors = jax.vmap(arm)(params)
    random_key, subkey = jax.random.split(random_key)
    fit_noise = jax.random.normal(subkey, shape=fitnesses.shape)  # expect
    desc_noise = jax.random.normal(subkey, shape=descriptors.shape)  # expect
    fitnesses = fitnesses + fit_noise * fit_variance
    descriptors = descriptors + desc_noise * desc_variance
    return fitnesses, descriptors, {"fit_noise": fit_noise, "desc_noise": desc_noise}, random_key


def map_elites_step(key, batch_size, n_joints, scoring_fn):
    key, sample_key = jax.random.split(key)
    offspring = jax.random.uniform(sample_key, (batch_size, n_joints))
    return scoring_fn(offspring, key)


def main() -> None:
    scoring_fn = jax.jit(partial(noisy_arm_scoring_function, fit_variance=0.1, desc_variance=0.05))
    fit, desc, extra, _ = map_elites_step(jax.random.PRNGKey(0), 6, 4, scoring_fn)
    print("fitness:", fit)
    flat_desc_noise = extra["desc_noise"].ravel()[: fit.shape[0]]
    if bool(jnp.array_equal(extra["fit_noise"], flat_desc_noise)):
        print("HAZARD: the fitness noise repeats the descriptor noise:", extra["fit_noise"][:3])
    jax.config.update("jax_debug_key_reuse", True)
    try:
        map_elites_step(jax.random.key(1), 6, 4, scoring_fn)
    except Exception as err:  # jax.errors.KeyReuseError
        print("HAZARD:", type(err).__name__, str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse")


if __name__ == "__main__":
    main()
