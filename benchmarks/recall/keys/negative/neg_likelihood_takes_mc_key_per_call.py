# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/gwkokab/gwkokab/issues/371
# shown: runs with jax_debug_key_reuse on; the jitted likelihood takes the Monte-Carlo key as an argument and the sampler loop splits a fresh one per evaluation, so repeated evaluations differ; prints OK
# style: inhomogeneous-Poisson likelihood class whose expected-rate integral is a Monte-Carlo estimate; the sampler calls a jax.jit-compiled log_likelihood many times
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class PoissonLikelihood:
    def __init__(self, data, n_mc=4096):
        self.data = data
        self.n_mc = n_mc
        self.jit_log_likelihood = jax.jit(self.log_likelihood)

    def exp_rate_integral(self, params, key):
        samples = params[0] + params[1] * jax.random.normal(key, (self.n_mc,))
        return jnp.mean(jnp.exp(-0.5 * samples**2))

    def log_likelihood(self, params, key):
        rate = self.exp_rate_integral(params, key)
        log_pdf = -0.5 * ((self.data - params[0]) / params[1]) ** 2 - jnp.log(params[1])
        return jnp.sum(log_pdf) - rate


if __name__ == "__main__":
    like = PoissonLikelihood(jnp.linspace(-1.0, 1.0, 20))
    params = jnp.array([0.1, 1.2])
    key = jax.random.key(0)
    values = []
    for _ in range(3):
        key, mc_key = jax.random.split(key)
        values.append(float(like.jit_log_likelihood(params, mc_key)))
    assert len(set(values)) > 1
    print("OK")
