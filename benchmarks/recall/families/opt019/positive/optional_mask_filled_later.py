# recall-case: positive
# rule: OPT019
# source: https://github.com/patrick-kidger/equinox/issues/798
# source: https://github.com/patrick-kidger/equinox/issues/1073
# shown: ValueError: Exception raised while checking equality of metadata fields of pytree ... at the second ensemble member
# style: Equinox, `X | None` static field filled with an array in __init__, ensemble evaluated in a loop
import equinox as eqx
import jax
import jax.numpy as jnp


class MaskedAttention(eqx.Module):
    qkv: eqx.nn.Linear
    causal_mask: jax.Array | None = eqx.field(static=True, default=None)  # expect

    def __init__(self, dim, seq_len, key, causal=True):
        self.qkv = eqx.nn.Linear(dim, 3 * dim, key=key)
        if causal:
            self.causal_mask = jnp.tril(jnp.ones((seq_len, seq_len), bool))

    def __call__(self, x):
        q, k, v = jnp.split(jax.vmap(self.qkv)(x), 3, axis=-1)
        scores = q @ k.T
        if self.causal_mask is not None:
            scores = jnp.where(self.causal_mask, scores, -jnp.inf)
        return jax.nn.softmax(scores) @ v


@eqx.filter_jit
def evaluate(model, x):
    return model(x).mean()


if __name__ == "__main__":
    x = jnp.ones((5, 4))
    ensemble = [MaskedAttention(4, 5, jax.random.key(i)) for i in range(3)]
    for member in ensemble:
        print(float(evaluate(member, x)))
    print("HAZARD: no error (not expected)")
