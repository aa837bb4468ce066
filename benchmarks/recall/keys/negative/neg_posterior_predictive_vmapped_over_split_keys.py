# recall-case: negative
# rule: OPT020
# class: broadcast
# source: https://github.com/tensorflow/probability/issues/2011
# shown: one key per posterior sample (split(pp_key, NUM_POSTERIOR)) and the joint distribution sampled under jax.vmap: every predictive draw has its own observation noise, no KeyReuseError under jax_debug_key_reuse; prints OK
# style: Bayesian workflow script with TensorFlow Probability on JAX: a JointDistributionCoroutineAutoBatched model, a conjugate posterior for the mean, a posterior-predictive check with predictive intervals
"""Posterior predictive check for a Normal-mean model (TFP on JAX)."""
import jax
import jax.numpy as jnp
import numpy as np
from tensorflow_probability.substrates import jax as tfp

tfd = tfp.distributions

PRIOR_SCALE = 1.0
NOISE_SCALE = 0.1
NUM_POSTERIOR = 200


@tfd.JointDistributionCoroutineAutoBatched
def model():
    theta = yield tfd.Normal(loc=0.0, scale=PRIOR_SCALE, name="theta")
    yield tfd.Normal(loc=theta, scale=NOISE_SCALE, name="y")


def posterior(y_obs: np.ndarray) -> tfd.Normal:
    """Conjugate Normal posterior of theta given n observations."""
    n = y_obs.shape[0]
    precision = 1.0 / PRIOR_SCALE**2 + n / NOISE_SCALE**2
    mean = (y_obs.sum() / NOISE_SCALE**2) / precision
    return tfd.Normal(loc=mean, scale=1.0 / jnp.sqrt(precision))


def posterior_predictive(key, y_obs):
    post_key, pp_key = jax.random.split(key)
    theta_samples = posterior(y_obs).sample(NUM_POSTERIOR, seed=post_key)
    pp_keys = jax.random.split(pp_key, NUM_POSTERIOR)
    draws = jax.vmap(lambda th, k: model.sample(theta=th, seed=k))(theta_samples, pp_keys)
    return theta_samples, draws.y


def main() -> None:
    jax.config.update("jax_debug_key_reuse", True)
    key = jax.random.key(0)
    data_key, key = jax.random.split(key)
    y_obs = np.asarray(model.sample(seed=data_key).y + 0.1 * np.arange(-2, 3))
    theta, y_rep = posterior_predictive(key, y_obs)
    lo, hi = np.percentile(np.asarray(y_rep), [5, 95])
    print(f"posterior theta: {float(theta.mean()):.3f} +- {float(theta.std()):.3f}")
    print(f"90% predictive interval: [{lo:.3f}, {hi:.3f}]")
    noise = np.asarray(y_rep - theta)
    print("observation noise of the first predictive draws:", noise[:4])
    if len(np.unique(np.round(noise, 6))) < NUM_POSTERIOR // 2:
        raise SystemExit("predictive draws share observation-noise draws")
    print("OK")


if __name__ == "__main__":
    main()
