# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/google/flax/pull/2665
# shown: all 4 members of the batched (ensemble) dense layer start with the same kernel (the param initialiser calls kernel_init(rng, ...) once per member with the one rng flax hands it), so after training the members agree exactly (spread 0); then KeyReuseError under jax_debug_key_reuse
# style: flax.linen deep-ensemble regressor: a batched dense layer with a custom param initialiser, an ensemble MLP, optax training of all members at once
"""Deep ensemble as one network: every dense layer carries a leading ensemble axis."""
import sys
from typing import Callable, Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax


class EnsembleDense(nn.Module):
    """Dense layer with a leading batch (ensemble-member) axis on its parameters."""

    features: int
    ensemble_size: int
    kernel_init: Callable = nn.initializers.lecun_normal()

    @nn.compact
    def __call__(self, x):  # x: (ensemble, batch, in)
        in_features = x.shape[-1]

        def kernel_init_wrap(rng, shape, dtype=jnp.float32):
            per_member = shape[1:]
            kernels = [self.kernel_init(rng, per_member, dtype) for _ in range(shape[0])]  # expect
            return jnp.stack(kernels)

        kernel = self.param("kernel", kernel_init_wrap, (self.ensemble_size, in_features, self.features))
        bias = self.param("bias", nn.initializers.zeros, (self.ensemble_size, 1, self.features))
        return jnp.einsum("ebi,eio->ebo", x, kernel) + bias


class EnsembleMLP(nn.Module):
    hidden: Sequence[int]
    ensemble_size: int

    @nn.compact
    def __call__(self, x):  # x: (batch, in)
        h = jnp.broadcast_to(x, (self.ensemble_size,) + x.shape)
        for width in self.hidden:
            h = nn.relu(EnsembleDense(width, self.ensemble_size)(h))
        return EnsembleDense(1, self.ensemble_size)(h)[..., 0]


def main() -> None:
    ensemble_size = 4
    rng = np.random.default_rng(0)
    x = rng.uniform(-2, 2, size=(64, 1)).astype(np.float32)
    y = (np.sin(2 * x[:, 0]) + 0.1 * rng.normal(size=64)).astype(np.float32)

    model = EnsembleMLP(hidden=(32, 32), ensemble_size=ensemble_size)
    params = model.init(jax.random.key(0), x)
    tx = optax.adam(1e-2)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state):
        def loss_fn(params):
            return jnp.mean((model.apply(params, x) - y) ** 2)
        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, loss

    for i in range(50):
        params, opt_state, loss = step(params, opt_state)
    preds = model.apply(params, np.linspace(-4, 4, 5, dtype=np.float32)[:, None])
    print(f"final loss {float(loss):.4f}; ensemble spread at x=4: {float(preds[:, -1].std()):.6f}")

    k = model.init(jax.random.key(0), x)["params"]["EnsembleDense_0"]["kernel"]
    if all(bool(jnp.array_equal(k[0], k[m])) for m in range(1, ensemble_size)):
        print(f"HAZARD: all {ensemble_size} ensemble members were initialised with the same kernel")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        model.init(jax.random.key(1), x)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
