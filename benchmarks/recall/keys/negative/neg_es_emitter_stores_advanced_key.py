# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/adaptive-intelligent-robotics/QDax/commit/b9cb3940dee26aeb6a33835e9391fd785c1c9d0a
# shown: runs with jax_debug_key_reuse on; emit splits the stored key and stores the new half back, so generations draw different perturbations; prints OK
# style: evolution-strategy emitter class with a flax.struct state, jitted emit/update, a Python generation loop
from functools import partial

import flax.struct
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


@flax.struct.dataclass
class EmitterState:
    mean: jnp.ndarray
    sigma: jnp.ndarray
    key: jax.Array
    emit_count: jnp.ndarray


class GaussianEmitter:
    def __init__(self, dim, population):
        self.dim = dim
        self.population = population

    def init(self, key):
        key, state_key = jax.random.split(key)
        state = EmitterState(jnp.zeros(self.dim), jnp.ones(()), state_key, jnp.zeros((), jnp.int32))
        return state, key

    def _sample(self, mean, sigma, key):
        key, noise_key = jax.random.split(key)
        noise = jax.random.normal(noise_key, (self.population, self.dim))
        return mean + sigma * noise, noise, key

    @partial(jax.jit, static_argnames=("self",))
    def emit(self, state, key):
        offspring, noise, next_state_key = self._sample(state.mean, state.sigma, state.key)
        return offspring, noise, state.replace(key=next_state_key), key

    @partial(jax.jit, static_argnames=("self",))
    def update(self, state, offspring, fitness):
        elite = offspring[jnp.argmax(fitness)]
        mean = 0.5 * state.mean + 0.5 * elite
        return state.replace(mean=mean, emit_count=state.emit_count + self.population)


if __name__ == "__main__":
    emitter = GaussianEmitter(dim=3, population=4)
    state, key = emitter.init(jax.random.key(0))
    noises = []
    for generation in range(2):
        offspring, noise, state, key = emitter.emit(state, key)
        fitness = -jnp.sum(offspring**2, axis=1)
        state = emitter.update(state, offspring, fitness)
        noises.append(noise)
    assert not bool(jnp.any(noises[0] == noises[1]))
    print("OK")
