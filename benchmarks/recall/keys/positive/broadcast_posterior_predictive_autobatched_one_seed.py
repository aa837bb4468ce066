# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/tensorflow/probability/issues/2011
# shown: the posterior-predictive draws all carry the same observation noise (y - theta is one constant over the 200 posterior samples): JointDistributionCoroutineAutoBatched.sample(theta=<batch>, seed=key) uses one key for every conditional draw of y (TFP 0.26.0.dev, JAX substrate); the checker is silent
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
    draws = model.sample(theta=theta_samples, seed=pp_key)  # expect
    return theta_samples, draws.y


def main() -> None:
    key = jax.random.key(0)
    data_key, key = jax.random.split(key)
    y_obs = np.asarray(model.sample(seed=data_key).y + 0.1 * np.arange(-2, 3))
    theta, y_rep = posterior_predictive(key, y_obs)
    lo, hi = np.percentile(np.asarray(y_rep), [5, 95])
    print(f"posterior theta: {float(theta.mean()):.3f} +- {float(theta.std()):.3f}")
    print(f"90% predictive interval: [{lo:.3f}, {hi:.3f}]")
    noise = np.asarray(y_rep - theta)
    print("observation noise of the first predictive draws:", noise[:4])
    if np.allclose(noise, noise[0], atol=1e-5):
        print(f"HAZARD: all {NUM_POSTERIOR} predictive draws share one observation-noise draw")


if __name__ == "__main__":
    main()
