# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/google/maxtext/commit/2b01cfa375e2514af341caeb627026b585b4a563
# shown: runs with jax_debug_key_reuse on; generate() takes the sampling key as an argument and the decode loop splits a fresh one per step, so the steps draw different tokens; prints OK
# style: inference engine class around a flax.linen model, generate() jitted with static self, temperature sampling
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)

VOCAB = 50


class TinyLM(nn.Module):
    @nn.compact
    def __call__(self, tokens):
        h = nn.Embed(VOCAB, 16)(tokens)
        return nn.Dense(VOCAB)(jnp.tanh(h))


def sample_tokens(logits, rng, temperature):
    return jax.random.categorical(rng, logits / temperature, axis=-1)


class DecodeEngine:
    def __init__(self, temperature=100.0):
        self.model = TinyLM()
        self.temperature = temperature

    def load_params(self, key, batch):
        return self.model.init(key, jnp.zeros((batch,), jnp.int32))

    @functools.partial(jax.jit, static_argnums=(0,))
    def generate(self, params, previous_tokens, rng):
        logits = self.model.apply(params, previous_tokens)
        return sample_tokens(logits, rng, self.temperature)


if __name__ == "__main__":
    engine = DecodeEngine()
    params = engine.load_params(jax.random.key(1), 16)
    rng = jax.random.key(0)
    tokens = jnp.arange(16) % VOCAB
    steps = []
    for _ in range(3):
        rng, step_rng = jax.random.split(rng)
        tokens = engine.generate(params, tokens, step_rng)
        steps.append(tokens)
    assert not bool(jnp.all(steps[0] == steps[1]))
    print("OK")
