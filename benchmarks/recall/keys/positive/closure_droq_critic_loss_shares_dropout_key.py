# recall-case: positive
# rule: OPT020
# class: closure
# source: https://github.com/vwxyzjn/cleanrl/commit/9704f1d17ededa4e65aba918544dbdc23bd9af24 ("Different dropout keys": in the JAX DroQ prototype, the nested `mse_loss(params)` applied the Q-network with `rngs={"dropout": dropout_noise_key}` and `jax.value_and_grad(mse_loss)` ran it for qf1 and for qf2)
# shown: the two critics' dropout masks are identical, unit for unit (HAZARD, exit 1); flax's `apply` hands the module a derived key, so JAX's key-reuse checker does not see this reuse and the equal masks are the proof
# style: CleanRL single-file TD3/DroQ script: flax.linen Q-network with Dropout + LayerNorm, TrainState per critic, a jitted update_critic with a nested loss
"""DroQ-style critic update: two dropout Q-networks trained on one batch."""
import sys

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training.train_state import TrainState


class QNetwork(nn.Module):
    dropout_rate: float = 0.1

    @nn.compact
    def __call__(self, obs, act, training: bool):
        x = jnp.concatenate([obs, act], -1)
        x = nn.Dense(32)(x) + 1.0
        x = nn.Dropout(self.dropout_rate, deterministic=not training)(x)
        dropped = x == 0.0
        x = nn.relu(nn.LayerNorm()(x))
        return nn.Dense(1)(x), dropped


qf = QNetwork(dropout_rate=0.5)


def update_critic(qf1_state, qf2_state, obs, act, target, key):
    key, dropout_noise_key = jax.random.split(key, 2)

    def mse_loss(params):
        q, dropped = qf.apply(params, obs, act, True, rngs={"dropout": dropout_noise_key})  # expect
        return jnp.mean((q.squeeze(-1) - target) ** 2), dropped

    (loss1, mask1), grads1 = jax.value_and_grad(mse_loss, has_aux=True)(qf1_state.params)
    (loss2, mask2), grads2 = jax.value_and_grad(mse_loss, has_aux=True)(qf2_state.params)  # expect
    qf1_state = qf1_state.apply_gradients(grads=grads1)
    qf2_state = qf2_state.apply_gradients(grads=grads2)
    return qf1_state, qf2_state, (mask1, mask2), key


def make_states(seed):
    obs, act = jnp.ones((8, 4)), jnp.ones((8, 2))
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    s1 = TrainState.create(apply_fn=qf.apply, params=qf.init(k1, obs, act, False), tx=optax.adam(1e-3))
    s2 = TrainState.create(apply_fn=qf.apply, params=qf.init(k2, obs, act, False), tx=optax.adam(1e-3))
    return s1, s2, obs, act


def main() -> None:
    s1, s2, obs, act = make_states(0)
    target = jnp.zeros(8)
    _, _, (m1, m2), _ = jax.jit(update_critic)(s1, s2, obs, act, target, jax.random.PRNGKey(3))
    print("units dropped by critic 1:", int(m1.sum()), "by critic 2:", int(m2.sum()))
    if bool(m1.any()) and bool(jnp.array_equal(m1, m2)):
        print("HAZARD: critic 1 and critic 2 dropped the same units")
        sys.exit(1)
    print("masks differ")


if __name__ == "__main__":
    main()
