# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/pyro-ppl/numpyro/pull/479
# shown: HAZARD: the second sampling run returned exactly the draws of the first (both start from the cached warmup state and its rng_key)
# style: numpyro functional HMC/NUTS API wrapped in a sampler class that caches its warmup state for warm restarts
import jax
import jax.numpy as jnp
from numpyro.infer.hmc import hmc
from numpyro.infer.util import initialize_model
from numpyro.util import fori_collect
import numpyro
import numpyro.distributions as dist


def model(y):
    mu = numpyro.sample("mu", dist.Normal(0.0, 5.0))
    numpyro.sample("y", dist.Normal(mu, 1.0), obs=y)


class WarmStartSampler:
    """Runs warmup once; later calls to `sample` reuse the adapted state."""

    def __init__(self, model, num_warmup):
        self.model = model
        self.num_warmup = num_warmup
        self._warmup_state = None

    def warmup(self, rng_key, *args):
        init_key, warm_key = jax.random.split(rng_key)
        model_info = initialize_model(init_key, self.model, model_args=args)
        init_kernel, self._sample_kernel = hmc(model_info.potential_fn, algo="NUTS")
        state = init_kernel(model_info.param_info, num_warmup=self.num_warmup, rng_key=warm_key)
        self._warmup_state = fori_collect(
            0, self.num_warmup, self._sample_kernel, state, return_last_val=True, progbar=False,
            transform=lambda s: None,
        )[1]

    def sample(self, num_samples):
        init_state = self._warmup_state
        return fori_collect(  # expect
            0, num_samples, self._sample_kernel, init_state, progbar=False,
            transform=lambda s: s.z["mu"],
        )


if __name__ == "__main__":
    y = jnp.array([0.3, 1.2, 0.8, 1.9, 1.1])
    sampler = WarmStartSampler(model, num_warmup=100)
    sampler.warmup(jax.random.PRNGKey(0), y)
    first = sampler.sample(50)  # expect
    second = sampler.sample(50)  # expect
    if bool(jnp.all(first == second)):
        print("HAZARD: the second sampling run returned exactly the draws of the first")
