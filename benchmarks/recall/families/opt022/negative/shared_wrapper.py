# recall-case: negative
# rule: OPT022
# source: https://github.com/patrick-kidger/equinox/pull/476
# shown: OK tied weights stay tied (gap 0.0)
# style: eqx.nn.Shared ties the unembedding to the embedding
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class TinyLM(eqx.Module):
    shared: eqx.nn.Shared
    mix: eqx.nn.Linear

    def __init__(self, vocab, dim, key):
        k1, k2, k3 = jax.random.split(key, 3)
        embed = eqx.nn.Embedding(vocab, dim, key=k1)
        unembed = eqx.nn.Embedding(vocab, dim, key=k3)
        self.shared = eqx.nn.Shared((embed, unembed), lambda p: p[1].weight, lambda p: p[0].weight)
        self.mix = eqx.nn.Linear(dim, dim, key=k2)

    def __call__(self, tok):
        embed, unembed = self.shared()
        return unembed.weight @ jnp.tanh(self.mix(embed(tok)))


if __name__ == "__main__":
    model = TinyLM(12, 6, jax.random.key(0))
    optim = optax.adam(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    tokens = jnp.array([1, 4, 7, 2])
    grads = eqx.filter_grad(
        lambda m: optax.softmax_cross_entropy_with_integer_labels(jax.vmap(m)(tokens[:-1]), tokens[1:]).mean()
    )(model)
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    embed, unembed = model.shared()
    gap = float(jnp.abs(embed.weight - unembed.weight).max())
    assert gap == 0.0
    print("OK tied weights stay tied (gap", gap, ")")
