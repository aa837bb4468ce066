# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/pyro-ppl/numpyro/commit/345d15579d6337481da1eebd6594ae849434b323
# shown: runs with jax_debug_key_reuse on; features and labels come from two halves of one split key, and the labels are not a function of the features' bits; prints OK
# style: synthetic logistic-regression data for a sampler test, labels drawn with TensorFlow Probability (JAX substrate) sample(seed=...)
import jax
import jax.numpy as jnp
from tensorflow_probability.substrates import jax as tfp

jax.config.update("jax_debug_key_reuse", True)
tfd = tfp.distributions

N, DIM = 200, 3


def make_logistic_data(key):
    feature_key, label_key = jax.random.split(key)
    features = jax.random.normal(feature_key, (N, DIM))
    true_coefs = jnp.arange(1.0, DIM + 1.0)
    logits = features @ true_coefs
    labels = tfd.Bernoulli(logits=logits).sample(seed=label_key)
    return features, logits, labels


if __name__ == "__main__":
    features, logits, labels = make_logistic_data(jax.random.key(0))
    u_from_features = jax.scipy.stats.norm.cdf(features.ravel()[:N])
    predicted = (u_from_features < jax.nn.sigmoid(logits)).astype(labels.dtype)
    assert not bool(jnp.all(predicted == labels))
    print("OK")
