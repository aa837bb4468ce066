# recall-case: positive
# rule: OPT020
# class: fold-in-split
# source: https://github.com/gwkokab/gwkokab/commit/5bde5e72ac797e9022ad9284e53727aa01815f78
# shown: the covariance fit's importance samples at iteration i are identical to the mean fit's at iteration i (split(key, 3) is a prefix of split(key, 5)), then KeyReuseError under jax_debug_key_reuse
# style: iterative importance-sampling fit of a Gaussian proposal, two lax.scan loops over per-iteration keys
import sys

import jax
import jax.numpy as jnp

N_SAMPLES = 256


def target_logpdf(x):
    return -0.5 * jnp.sum(((x - 1.0) / 0.7) ** 2, axis=-1)


def proposal_samples(mean, std, key):
    return mean + std * jax.random.normal(key, (N_SAMPLES, mean.shape[0]))


def fit_proposal(key, mean, std, iters_mean=5, iters_std=3):
    def mean_step(mean_i, k):
        x = proposal_samples(mean_i, std, k)
        w = jax.nn.softmax(target_logpdf(x))
        return jnp.sum(w[:, None] * x, axis=0), (x[0] - mean_i) / std

    mean, mean_first = jax.lax.scan(mean_step, mean, jax.random.split(key, iters_mean))  # expect

    def std_step(std_i, k):
        x = proposal_samples(mean, std_i, k)
        w = jax.nn.softmax(target_logpdf(x))
        return jnp.sqrt(jnp.sum(w[:, None] * (x - mean) ** 2, axis=0)), (x[0] - mean) / std_i

    std, std_first = jax.lax.scan(std_step, std, jax.random.split(key, iters_std))  # expect
    return mean, std, mean_first, std_first


if __name__ == "__main__":
    mean0, std0 = jnp.zeros(2), jnp.ones(2)
    mean, std, mean_first, std_first = fit_proposal(jax.random.key(5), mean0, std0)
    print("fitted", mean, std)
    # Both fits report the standard-normal draw behind their first sample of each iteration.
    if bool(jnp.allclose(std_first, mean_first[:3], atol=1e-5)):
        print("HAZARD: the std fit's first 3 iterations reuse the mean fit's normal draws:", std_first[0])
    jax.config.update("jax_debug_key_reuse", True)
    try:
        fit_proposal(jax.random.key(5), mean0, std0)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
