# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/google/maxtext/commit/2b01cfa375e2514af341caeb627026b585b4a563
# shown: runs with jax_debug_key_reuse on; the prefill step passes rngs={"params": self.rng} to apply with dropout disabled, after init used the same key, but apply creates no parameters and draws nothing (same logits for any key); prints OK
# style: inference engine class around a flax.linen model whose dropout is switched off at decode time
import flax.linen as nn
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)

VOCAB = 50


class TinyLM(nn.Module):
    @nn.compact
    def __call__(self, tokens, enable_dropout=False):
        h = nn.Embed(VOCAB, 16)(tokens)
        h = nn.Dropout(0.1, deterministic=not enable_dropout)(jnp.tanh(h))
        return nn.Dense(VOCAB)(h)


class Engine:
    def __init__(self):
        self.model = TinyLM()
        self.rng = jax.random.key(0)

    def load_params(self, batch):
        return self.model.init(self.rng, jnp.zeros((batch,), jnp.int32))

    def prefill(self, params, tokens):
        return self.model.apply(params, tokens, enable_dropout=False, rngs={"params": self.rng})


if __name__ == "__main__":
    engine = Engine()
    params = engine.load_params(4)
    logits = engine.prefill(params, jnp.arange(4))
    other = engine.model.apply(params, jnp.arange(4), enable_dropout=False, rngs={"params": jax.random.key(5)})
    assert bool(jnp.all(logits == other))  # the params rng is never drawn from in apply
    print("OK")
