# recall-case: positive
# rule: OPT001
# source: https://github.com/patrick-kidger/equinox/issues/266
# source: https://github.com/google-deepmind/optax/issues/913
# shown: HAZARD: ValueError `eqx.nn.Embedding()(x)` should be called with a scalar index `x` (optax calls the module-shaped label tree at init)
# style: config dict of parameter groups, transforms assembled in a loop, labels assigned per group with eqx.tree_at
import jax
import jax.numpy as jnp
import equinox as eqx
import optax

GROUPS = {
    "embed": {"lr": 1e-3, "select": lambda m: (m.embed.weight,)},
    "body": {"lr": 3e-4, "select": lambda m: tuple(l.weight for l in m.body.layers) + tuple(l.bias for l in m.body.layers)},
}


class LM(eqx.Module):
    embed: eqx.nn.Embedding
    body: eqx.nn.MLP

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.embed = eqx.nn.Embedding(10, 4, key=k1)
        self.body = eqx.nn.MLP(4, 10, 8, 1, key=k2)

    def __call__(self, token):
        return self.body(self.embed(token))


def build(model, groups=GROUPS):
    params = eqx.filter(model, eqx.is_inexact_array)
    labels = jax.tree_util.tree_map(lambda _: "body", params)
    transforms = {}
    for name, g in groups.items():
        transforms[name] = optax.adamw(g["lr"])
        chosen = g["select"](params)
        labels = eqx.tree_at(g["select"], labels, (name,) * len(chosen))
    return optax.multi_transform(transforms, labels), params  # expect


if __name__ == "__main__":
    tx, params = build(LM(jax.random.key(0)))
    try:
        state = tx.init(params)  # expect
    except (TypeError, ValueError) as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("initialised")
