# recall-case: negative
# rule: OPT001
# source: https://github.com/google-deepmind/optax/issues/296
# shown: runs; frozen Dense_0 unchanged after 3 steps (OK)
# style: Flax linen params (plain dicts), labels from a tree map over the dict, optax.partition freeze
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(8)(x))
        return nn.Dense(1)(x)


def labels_for(params):
    return {"params": {name: jax.tree_util.tree_map(lambda _: "frozen" if name == "Dense_0" else "train", sub)
                       for name, sub in params["params"].items()}}


if __name__ == "__main__":
    model = MLP()
    x = jnp.ones((4, 3))
    params = model.init(jax.random.key(0), x)
    tx = optax.partition({"train": optax.adam(1e-2), "frozen": optax.set_to_zero()}, labels_for(params))
    state = tx.init(params)
    p = params
    for _ in range(3):
        grads = jax.grad(lambda q: jnp.mean(model.apply(q, x) ** 2))(p)
        updates, state = tx.update(grads, state, p)
        p = optax.apply_updates(p, updates)
    same = bool(jnp.all(p["params"]["Dense_0"]["kernel"] == params["params"]["Dense_0"]["kernel"]))
    print("frozen unchanged:", same)
    assert same
    print("OK")
