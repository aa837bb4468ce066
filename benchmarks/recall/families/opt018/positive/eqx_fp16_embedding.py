# recall-case: positive
# rule: OPT018
# source: https://github.com/google-deepmind/optax/issues/1414
# shown: HAZARD: eps stored as 0.0 in float16; unused embedding rows became NaN: 10 rows
# style: Equinox, model cast to float16 by a helper, unused embedding rows (zero gradient), filter_jit
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def half(model):
    return jax.tree_util.tree_map(lambda x: x.astype(jnp.float16) if eqx.is_inexact_array(x) else x, model)


class TinyLM(eqx.Module):
    embed: eqx.nn.Embedding
    head: eqx.nn.Linear

    def __init__(self, vocab, dim, key):
        k1, k2 = jax.random.split(key)
        self.embed = eqx.nn.Embedding(vocab, dim, key=k1)
        self.head = eqx.nn.Linear(dim, vocab, key=k2)

    def __call__(self, tok):
        return self.head(self.embed(tok))


@eqx.filter_jit
def step(model, opt_state, optim, tokens):
    def loss(m):
        logits = jax.vmap(m)(tokens).astype(jnp.float32)
        return optax.softmax_cross_entropy_with_integer_labels(logits, tokens).mean()

    grads = eqx.filter_grad(loss)(model)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


if __name__ == "__main__":
    model = half(TinyLM(10, 4, jax.random.key(0)))
    optim = optax.inject_hyperparams(optax.adamw)(learning_rate=1e-3, weight_decay=0.0)  # expect
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    tokens = jnp.array([0, 1, 2, 3])  # rows 4..9 of the embedding get no gradient
    for _ in range(2):
        model, opt_state = step(model, opt_state, optim, tokens)
    bad_rows = int(jnp.isnan(model.embed.weight).any(axis=1).sum())
    eps = float(opt_state.hyperparams["eps"])
    print(f"HAZARD: eps stored as {eps} in float16; unused embedding rows became NaN: {bad_rows} rows" if bad_rows else "OK")
