# recall-case: negative
# rule: OPT007
# source: https://github.com/RobertTLange/evosax/pull/108
# shown: jax.vmap(self.optimizer.update)(grad, opt_state, mean) runs with adamw (OK)
# style: the fix from the PR: the mean is passed as params through vmap
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax


class State(NamedTuple):
    mean: jax.Array
    opt_state: optax.OptState


class OpenES:
    def __init__(self, num_dims, optimizer, popsize=8, sigma=0.1):
        self.num_dims, self.optimizer, self.popsize, self.sigma = num_dims, optimizer, popsize, sigma

    def init(self, key, n_chains=2):
        mean = jax.random.normal(key, (n_chains, self.num_dims))
        return State(mean, jax.vmap(self.optimizer.init)(mean))

    def tell(self, state, noise, fitness):
        grad = jnp.einsum("cp,cpd->cd", fitness, noise) / (self.popsize * self.sigma)
        updates, opt_state = jax.vmap(self.optimizer.update)(grad, state.opt_state, state.mean)
        return State(optax.apply_updates(state.mean, updates), opt_state)


if __name__ == "__main__":
    es = OpenES(4, optax.adamw(1e-2, weight_decay=1e-3))
    key = jax.random.key(0)
    state = es.init(key)
    noise = jax.random.normal(key, (2, es.popsize, 4))
    fitness = jnp.sum((state.mean[:, None, :] + es.sigma * noise) ** 2, axis=-1)
    new = es.tell(state, noise, fitness)
    print("mean moved", float(jnp.abs(new.mean - state.mean).max()))
    print("OK")
