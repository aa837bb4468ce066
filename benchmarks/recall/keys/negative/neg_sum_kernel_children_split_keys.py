# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/JaxGaussianProcesses/GPJax/commit/767f078a6ba39d1e6b2942a07e6676afddd0939a
# shown: runs with jax_debug_key_reuse on; each child kernel gets its own split key and different hyperparameters; prints OK
# style: Gaussian-process kernel classes whose init_params(key) is called for each child in a list comprehension
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


@dataclass
class RBF:
    name: str

    def init_params(self, key):
        log_lengthscale, log_variance = jax.random.normal(key, (2,))
        return {"lengthscale": jnp.exp(log_lengthscale), "variance": jnp.exp(log_variance)}

    def __call__(self, params, x, y):
        sq = jnp.sum((x - y) ** 2) / params["lengthscale"] ** 2
        return params["variance"] * jnp.exp(-0.5 * sq)


@dataclass
class SumKernel:
    kernels: list = field(default_factory=list)

    def init_params(self, key):
        keys = jax.random.split(key, len(self.kernels))
        return [kernel.init_params(k) for k, kernel in zip(keys, self.kernels, strict=True)]

    def __call__(self, params, x, y):
        return sum(k(p, x, y) for k, p in zip(self.kernels, params, strict=True))


if __name__ == "__main__":
    kernel = SumKernel([RBF("short"), RBF("long")])
    params = kernel.init_params(jax.random.key(42))
    assert bool(params[0]["lengthscale"] != params[1]["lengthscale"])
    print("kernel value", kernel(params, jnp.zeros(2), jnp.ones(2)))
    print("OK")
