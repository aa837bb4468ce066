# recall-case: negative
# rule: OPT020
# class: broadcast
# source: https://github.com/young-geng/scalax/issues/6
# shown: one replicated dropout key for a data-parallel (sharded) batch under jax.jit on 2 host devices: every example, on either device, gets its own dropout mask, because the key draws one mask for the whole global batch; no KeyReuseError under jax_debug_key_reuse; prints OK
# style: data-parallel training step with jax.sharding (Mesh, NamedSharding over a "dp" axis), an Equinox MLP with dropout applied to the global batch
"""Data-parallel train step: the batch is sharded, the dropout key is replicated."""
import os

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=2"

import equinox as eqx  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

jax.config.update("jax_debug_key_reuse", True)


class Model(eqx.Module):
    hidden: eqx.nn.Linear
    dropout: eqx.nn.Dropout
    head: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.hidden = eqx.nn.Linear(4, 32, key=k1)
        self.dropout = eqx.nn.Dropout(0.5)
        self.head = eqx.nn.Linear(32, 1, key=k2)

    def __call__(self, xs, key):
        """xs: the global batch (B, 4); one dropout draw covers all of it."""
        h = jax.nn.relu(jax.vmap(self.hidden)(xs))
        h = self.dropout(h, key=key)
        return jax.vmap(self.head)(h)[:, 0], h != 0


def main() -> None:
    mesh = Mesh(np.array(jax.devices()[:2]), ("dp",))
    data_sharding = NamedSharding(mesh, P("dp"))
    replicated = NamedSharding(mesh, P())

    key = jax.random.key(0)
    key, model_key, data_key = jax.random.split(key, 3)
    model = Model(model_key)
    optim = optax.sgd(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))

    xs = jax.device_put(jnp.ones((8, 4)), data_sharding)  # identical inputs: only dropout differs
    ys = jax.device_put(jnp.zeros((8,)), data_sharding)

    @eqx.filter_jit
    def train_step(model, opt_state, xs, ys, dropout_key):
        def loss_fn(model):
            pred, keep = model(xs, dropout_key)
            return jnp.mean((pred - ys) ** 2), keep

        (loss, keep), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model)
        updates, opt_state = optim.update(grads, opt_state)
        return eqx.apply_updates(model, updates), opt_state, loss, keep

    for step in range(2):
        key, dropout_key = jax.random.split(key)
        dropout_key = jax.device_put(dropout_key, replicated)
        model, opt_state, loss, keep = train_step(model, opt_state, xs, ys, dropout_key)
        rows = np.asarray(keep)
        distinct = len({r.tobytes() for r in rows})
        print(f"step {step}: loss {float(loss):.3f}, {distinct} distinct masks over {rows.shape[0]} examples")
        if distinct != rows.shape[0]:
            raise SystemExit("two examples shared a dropout mask")
    print("OK")


if __name__ == "__main__":
    main()
