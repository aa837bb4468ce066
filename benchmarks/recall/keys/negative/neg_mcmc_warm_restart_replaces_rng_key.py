# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/pyro-ppl/numpyro/pull/479
# shown: each warm restart replaces the cached state's rng_key with a fresh key (the fix in the thread), so the two runs differ; prints OK
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
    """Runs warmup once; later calls to `sample` restart from the adapted state with a new key."""

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

    def sample(self, rng_key, num_samples):
        init_state = self._warmup_state._replace(rng_key=rng_key)
        return fori_collect(
            0, num_samples, self._sample_kernel, init_state, progbar=False,
            transform=lambda s: s.z["mu"],
        )


if __name__ == "__main__":
    y = jnp.array([0.3, 1.2, 0.8, 1.9, 1.1])
    warm_key, first_key, second_key = jax.random.split(jax.random.PRNGKey(0), 3)
    sampler = WarmStartSampler(model, num_warmup=100)
    sampler.warmup(warm_key, y)
    first = sampler.sample(first_key, 50)
    second = sampler.sample(second_key, 50)
    assert not bool(jnp.all(first == second))
    print("OK")
