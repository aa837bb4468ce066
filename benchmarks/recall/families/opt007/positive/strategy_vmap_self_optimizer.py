# recall-case: positive
# rule: OPT007
# source: https://github.com/RobertTLange/evosax/pull/108
# shown: HAZARD: ValueError You are using a transformation that requires the current value of parameters, but you are not passing `params` when calling `update`.
# style: evolution-strategy class, optimizer handed to the constructor and used via jax.vmap(self.optimizer.update) in another method
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax


class State(NamedTuple):
    mean: jax.Array
    opt_state: optax.OptState


class OpenES:
    def __init__(self, num_dims, optimizer, popsize=8, sigma=0.1):
        self.num_dims = num_dims
        self.optimizer = optimizer
        self.popsize = popsize
        self.sigma = sigma

    def init(self, key, n_chains=2):
        mean = jax.random.normal(key, (n_chains, self.num_dims))
        return State(mean, jax.vmap(self.optimizer.init)(mean))

    def tell(self, state, noise, fitness):
        grad = jnp.einsum("cp,cpd->cd", fitness, noise) / (self.popsize * self.sigma)
        updates, opt_state = jax.vmap(self.optimizer.update)(grad, state.opt_state)  # expect
        return State(optax.apply_updates(state.mean, updates), opt_state)


if __name__ == "__main__":
    es = OpenES(num_dims=4, optimizer=optax.adamw(1e-2, weight_decay=1e-3))
    key = jax.random.key(0)
    state = es.init(key)
    noise = jax.random.normal(key, (2, es.popsize, 4))
    fitness = jnp.sum((state.mean[:, None, :] + es.sigma * noise) ** 2, axis=-1)
    try:
        state = es.tell(state, noise, fitness)
    except ValueError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("told")
