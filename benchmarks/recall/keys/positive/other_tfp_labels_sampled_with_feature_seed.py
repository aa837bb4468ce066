# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/pyro-ppl/numpyro/commit/345d15579d6337481da1eebd6594ae849434b323
# shown: the Bernoulli label noise is Phi(feature) of the same bits: every label's uniform equals the normal CDF of the matching feature entry (both drawn from PRNGKey(0))
# style: synthetic logistic-regression data for a sampler test, labels drawn with TensorFlow Probability (JAX substrate) sample(seed=...)
import sys

import jax
import jax.numpy as jnp
from tensorflow_probability.substrates import jax as tfp

tfd = tfp.distributions

N, DIM = 200, 3


def make_logistic_data():
    features = jax.random.normal(jax.random.PRNGKey(0), (N, DIM))  # expect
    true_coefs = jnp.arange(1.0, DIM + 1.0)
    logits = features @ true_coefs
    labels = tfd.Bernoulli(logits=logits).sample(seed=jax.random.PRNGKey(0))  # expect
    return features, logits, labels


if __name__ == "__main__":
    features, logits, labels = make_logistic_data()
    # Bernoulli(p).sample draws u ~ U(0, 1) and returns u < p; rebuild u from the features' bits.
    u_from_features = jax.scipy.stats.norm.cdf(features.ravel()[:N])
    p = jax.nn.sigmoid(logits)
    predicted = (u_from_features < p).astype(labels.dtype)
    print("labels mean", float(labels.mean()))
    if bool(jnp.all(predicted == labels)):
        print("HAZARD: all", N, "labels are a function of the features' own random bits (one seed for both)")
        sys.exit(1)
