# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/blackjax-devs/blackjax/issues/400
# shown: runs with jax_debug_key_reuse on; each prior gets its own index of the split keys (u_sigma keys[6], v_sigma keys[7]); prints OK
# style: hand-built hierarchical model: a list of split keys indexed by hand, TFP (JAX substrate) priors sampled with sample(seed=...)
import jax
import jax.numpy as jnp
from tensorflow_probability.substrates import jax as tfp

jax.config.update("jax_debug_key_reuse", True)
tfd = tfp.distributions


def sample_initial_position(key):
    keys = jax.random.split(key, 8)
    mu = tfd.Normal(0.0, 1.0).sample(seed=keys[0])
    tau = tfd.HalfNormal(1.0).sample(seed=keys[1])
    u = tfd.Normal(0.0, 1.0).sample(5, seed=keys[2])
    v = tfd.Normal(0.0, 1.0).sample(5, seed=keys[3])
    beta = tfd.Normal(0.0, 0.5).sample(3, seed=keys[4])
    sigma = tfd.HalfNormal(1.0).sample(seed=keys[5])
    u_sigma = tfd.HalfNormal(2.0).sample(seed=keys[6])
    v_sigma = tfd.HalfNormal(3.0).sample(seed=keys[7])
    return {"mu": mu, "tau": tau, "u": u, "v": v, "beta": beta, "sigma": sigma,
            "u_sigma": u_sigma, "v_sigma": v_sigma}


if __name__ == "__main__":
    position = sample_initial_position(jax.random.key(11))
    ratio = position["v_sigma"] / position["u_sigma"]
    assert not bool(jnp.isclose(ratio, 1.5, rtol=1e-5))
    print("OK")
