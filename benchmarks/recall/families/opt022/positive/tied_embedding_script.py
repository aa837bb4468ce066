# recall-case: positive
# rule: OPT022
# source: https://github.com/patrick-kidger/equinox/issues/469
# source: https://github.com/patrick-kidger/equinox/pull/476
# shown: HAZARD: tied embedding and unembedding differ by 0.0200 after one step
# style: script, one Embedding stored in two fields of a language model, adam
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class TinyLM(eqx.Module):
    embed: eqx.nn.Embedding
    unembed: eqx.nn.Embedding
    mix: eqx.nn.Linear

    def __init__(self, vocab, dim, key):
        k1, k2 = jax.random.split(key)
        table = eqx.nn.Embedding(vocab, dim, key=k1)
        self.embed = table
        self.unembed = table  # expect
        self.mix = eqx.nn.Linear(dim, dim, key=k2)

    def __call__(self, tok):
        h = jnp.tanh(self.mix(self.embed(tok)))
        return self.unembed.weight @ h


model = TinyLM(12, 6, jax.random.key(0))
optim = optax.adam(1e-2)
opt_state = optim.init(eqx.filter(model, eqx.is_array))
tokens = jnp.array([1, 4, 7, 2])


@eqx.filter_jit
def step(model, opt_state):
    def loss(m):
        logits = jax.vmap(m)(tokens[:-1])
        return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[1:]).mean()

    grads = eqx.filter_grad(loss)(model)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state


model, opt_state = step(model, opt_state)

if __name__ == "__main__":
    gap = float(jnp.abs(model.embed.weight - model.unembed.weight).max())
    print(f"HAZARD: tied embedding and unembedding differ by {gap:.4f} after one step" if gap else "OK")
