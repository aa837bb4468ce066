# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/blackjax-devs/blackjax/issues/400
# shown: the two prior scales come out as the same standard draw: both TFP sample(seed=keys[6]) calls get one key (keys[7] is never used)
# style: hand-built hierarchical model: a list of split keys indexed by hand, TFP (JAX substrate) priors sampled with sample(seed=...)
import sys

import jax
import jax.numpy as jnp
from tensorflow_probability.substrates import jax as tfp

tfd = tfp.distributions


def sample_initial_position(key):
    keys = jax.random.split(key, 8)
    mu = tfd.Normal(0.0, 1.0).sample(seed=keys[0])
    tau = tfd.HalfNormal(1.0).sample(seed=keys[1])
    u = tfd.Normal(0.0, 1.0).sample(5, seed=keys[2])
    v = tfd.Normal(0.0, 1.0).sample(5, seed=keys[3])
    beta = tfd.Normal(0.0, 0.5).sample(3, seed=keys[4])
    sigma = tfd.HalfNormal(1.0).sample(seed=keys[5])
    u_sigma = tfd.HalfNormal(2.0).sample(seed=keys[6])  # expect
    v_sigma = tfd.HalfNormal(3.0).sample(seed=keys[6])  # expect
    return {"mu": mu, "tau": tau, "u": u, "v": v, "beta": beta, "sigma": sigma,
            "u_sigma": u_sigma, "v_sigma": v_sigma}


if __name__ == "__main__":
    position = sample_initial_position(jax.random.PRNGKey(11))
    ratio = position["v_sigma"] / position["u_sigma"]
    print("u_sigma", float(position["u_sigma"]), "v_sigma", float(position["v_sigma"]))
    if bool(jnp.isclose(ratio, 1.5, rtol=1e-5)):
        print("HAZARD: v_sigma is exactly 1.5 x u_sigma: both half-normals used the same standard draw")
        sys.exit(1)
