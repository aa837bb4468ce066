# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/google/maxtext/commit/2b01cfa375e2514af341caeb627026b585b4a563
# shown: every decode step samples with the engine's self.rng (set once in __init__, baked into the jitted method), so at a high temperature all steps draw the same tokens
# (that fix is on branch mohit/fix_decode_sampling; the code it fixes, rebuilt here, was on main)
# style: inference engine class around a flax.linen model, generate() jitted with static self, temperature sampling
import functools
import sys

import flax.linen as nn
import jax
import jax.numpy as jnp

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
        self.rng = jax.random.PRNGKey(0)

    def load_params(self, key, batch):
        return self.model.init(key, jnp.zeros((batch,), jnp.int32))

    @functools.partial(jax.jit, static_argnums=(0,))
    def generate(self, params, previous_tokens):
        logits = self.model.apply(params, previous_tokens)
        return sample_tokens(logits, self.rng, self.temperature)  # expect


if __name__ == "__main__":
    engine = DecodeEngine()
    params = engine.load_params(jax.random.PRNGKey(1), 16)
    tokens = jnp.arange(16) % VOCAB
    steps = []
    for _ in range(3):
        tokens = engine.generate(params, tokens)  # expect
        steps.append(tokens)
    print("step tokens", [list(map(int, s[:6])) for s in steps])
    if all(bool(jnp.all(s == steps[0])) for s in steps[1:]):
        print("HAZARD: all 3 decode steps drew the same 16 tokens:", list(map(int, steps[0])))
        sys.exit(1)
