# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/JaxGaussianProcesses/GPJax/commit/767f078a6ba39d1e6b2942a07e6676afddd0939a
# shown: the two child kernels of a sum kernel get identical random initial hyperparameters, then KeyReuseError under jax_debug_key_reuse
# style: Gaussian-process kernel classes whose init_params(key) is called for each child in a list comprehension
import sys
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


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
        return [kernel.init_params(key) for kernel in self.kernels]  # expect

    def __call__(self, params, x, y):
        return sum(k(p, x, y) for k, p in zip(self.kernels, params, strict=True))


if __name__ == "__main__":
    kernel = SumKernel([RBF("short"), RBF("long")])
    params = kernel.init_params(jax.random.key(42))
    print("kernel value", kernel(params, jnp.zeros(2), jnp.ones(2)))
    if all(bool(params[0][k] == params[1][k]) for k in params[0]):
        print("HAZARD: both child kernels start with identical hyperparameters:",
              {k: float(v) for k, v in params[0].items()})
    jax.config.update("jax_debug_key_reuse", True)
    try:
        kernel.init_params(jax.random.key(42))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
