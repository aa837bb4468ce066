# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/stanford-crfm/levanter/commit/ecb6b5fcdd96d20d34672faae740bfcd20de9c83
# shown: two devices fed the same batch report the same local loss: pmap's in_axes=None hands every device the same step key, so their dropout masks are identical (inside a device, vmap also gives every example that key)
# style: Equinox model with eqx.nn.Dropout, data-parallel make_step under jax.pmap (2 host CPU devices)
import os

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=2"

import sys  # noqa: E402
from functools import partial  # noqa: E402

import equinox as eqx  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402


class Classifier(eqx.Module):
    hidden: eqx.nn.Linear
    dropout: eqx.nn.Dropout
    out: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.hidden = eqx.nn.Linear(8, 64, key=k1)
        self.dropout = eqx.nn.Dropout(0.5)
        self.out = eqx.nn.Linear(64, 2, key=k2)

    def __call__(self, x, *, inference, key):
        h = self.dropout(jax.nn.relu(self.hidden(x)), inference=inference, key=key)
        return self.out(h)


def compute_loss(model, x, y, inference, key):
    model = partial(model, inference=inference, key=key)
    # vmap hands the same key to every example of the batch as well.
    logits = jax.vmap(model)(x)  # expect
    return jnp.mean(optax.softmax_cross_entropy_with_integer_labels(logits, y))


def train(model, x, y, step_keys, lr=1e-2):
    params, static = eqx.partition(model, eqx.is_inexact_array)

    def make_step(params, x, y, key):
        local_loss, grads = jax.value_and_grad(
            lambda p: compute_loss(eqx.combine(p, static), x, y, False, key))(params)
        grads = jax.lax.pmean(grads, "device")
        params = jax.tree_util.tree_map(lambda w, g: w - lr * g, params, grads)
        return local_loss, params

    p_make_step = jax.pmap(make_step, "device", in_axes=(None, 0, 0, None))  # expect
    for key in step_keys:
        local_loss, replicated = p_make_step(params, x, y, key)  # expect
        params = jax.tree_util.tree_map(lambda a: a[0], replicated)
    return eqx.combine(params, static), local_loss


if __name__ == "__main__":
    n_dev = jax.local_device_count()
    model = Classifier(jax.random.PRNGKey(0))
    x = jnp.broadcast_to(jnp.linspace(-1.0, 1.0, 4 * 8).reshape(4, 8), (n_dev, 4, 8))
    y = jnp.broadcast_to(jnp.array([0, 1, 0, 1]), (n_dev, 4))
    model, local_loss = train(model, x, y, jax.random.split(jax.random.PRNGKey(1), 3))
    print("devices", n_dev, "last local losses", local_loss)
    if n_dev > 1 and bool(jnp.all(local_loss == local_loss[0])):
        print("HAZARD: all", n_dev, "devices computed the same dropout-noised loss on the same batch:",
              float(local_loss[0]))
        sys.exit(1)
