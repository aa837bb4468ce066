# recall-case: positive
# rule: decay-mask
# source: https://github.com/salesforce/jaxformer/issues/28
# source: https://github.com/google-deepmind/optax/issues/25
# shown: HAZARD: stacked LayerNorm scale has ndim 2, so 'ndim > 1' decays it: 1.0 -> 0.905
# style: nn.scan-stacked Flax layers, mask "decay only matrices" written as ndim > 1
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Layer(nn.Module):
    @nn.compact
    def __call__(self, x, _):
        h = nn.LayerNorm(name="ln")(x)
        return x + nn.Dense(x.shape[-1], name="fc")(h), None


class Stack(nn.Module):
    depth: int = 3

    @nn.compact
    def __call__(self, x):
        scanned = nn.scan(Layer, variable_axes={"params": 0}, split_rngs={"params": True}, length=self.depth)
        x, _ = scanned(name="layers")(x, None)
        return x


def matrices_only(params):
    return jax.tree_util.tree_map(lambda p: p.ndim > 1, params)


if __name__ == "__main__":
    params = Stack().init(jax.random.key(0), jnp.ones((2, 8)))
    tx = optax.adamw(1e-2, weight_decay=0.1, mask=matrices_only)  # expect
    state = tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(100):
        updates, state = tx.update(zeros, state, params)
        params = optax.apply_updates(params, updates)
    scale = params["params"]["layers"]["ln"]["scale"]
    print(f"HAZARD: stacked LayerNorm scale has ndim {scale.ndim}, so 'ndim > 1' decays it: 1.0 -> {float(scale.min()):.3f}"
          if float(scale.min()) < 1.0 else "OK")
