# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/gwkokab/gwkokab/issues/371
# shown: every evaluation of the jitted likelihood uses the same Monte-Carlo samples: the key made from np.random.randint inside the traced method is fixed when jit traces it (eager calls differ)
# style: inhomogeneous-Poisson likelihood class whose expected-rate integral draws its own key; the sampler calls a jax.jit-compiled log_likelihood many times
import sys

import jax
import jax.numpy as jnp
import numpy as np


class PoissonLikelihood:
    def __init__(self, data, n_mc=4096):
        self.data = data
        self.n_mc = n_mc
        self.jit_log_likelihood = jax.jit(self.log_likelihood)

    def exp_rate_integral(self, params):
        # A fresh seed per call was intended; under jit this runs once, at trace time.
        key = jax.random.PRNGKey(np.random.randint(1, 2**31 - 1))
        samples = params[0] + params[1] * jax.random.normal(key, (self.n_mc,))  # expect
        return jnp.mean(jnp.exp(-0.5 * samples**2))

    def log_likelihood(self, params):
        rate = self.exp_rate_integral(params)
        log_pdf = -0.5 * ((self.data - params[0]) / params[1]) ** 2 - jnp.log(params[1])
        return jnp.sum(log_pdf) - rate


if __name__ == "__main__":
    like = PoissonLikelihood(jnp.linspace(-1.0, 1.0, 20))
    params = jnp.array([0.1, 1.2])
    jitted = [float(like.jit_log_likelihood(params)) for _ in range(3)]  # expect
    eager = [float(like.log_likelihood(params)) for _ in range(3)]
    print("jitted", jitted, "eager", eager)
    if len(set(jitted)) == 1 and len(set(eager)) > 1:
        print("HAZARD: 3 jitted likelihood evaluations reused one Monte-Carlo key:", jitted[0])
        sys.exit(1)
