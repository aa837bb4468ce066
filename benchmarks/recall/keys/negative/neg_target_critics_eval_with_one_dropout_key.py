# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/vwxyzjn/cleanrl/commit/9704f1d17ededa4e65aba918544dbdc23bd9af24 (the DroQ prototype's critics; here the two target critics are evaluated with dropout off, the case where sharing a key is harmless)
# shown: both target critics get rngs={"dropout": key} but run with training=False, so the Dropout layers are deterministic and draw nothing from the key; the online critics get their own keys; the result equals a run with two different keys for the targets; prints OK
# style: CleanRL single-file TD3/DroQ script: flax.linen Q-network with Dropout + LayerNorm, TrainState per critic, a jitted update_critic
"""DroQ-style critic update where the target critics are evaluated deterministically."""
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
        x = nn.Dense(32)(x)
        x = nn.Dropout(self.dropout_rate, deterministic=not training)(x)
        x = nn.relu(nn.LayerNorm()(x))
        return nn.Dense(1)(x).squeeze(-1)


qf = QNetwork(dropout_rate=0.5)


def update_critic(qf1_state, qf2_state, target1, target2, batch, key, target_key):
    obs, act, reward, next_obs, next_act = batch
    key, dropout_key_1, dropout_key_2 = jax.random.split(key, 3)
    # Targets are evaluated in inference mode: the key is accepted but unused.
    next_q1 = qf.apply(target1, next_obs, next_act, False, rngs={"dropout": target_key})
    next_q2 = qf.apply(target2, next_obs, next_act, False, rngs={"dropout": target_key})
    y = reward + 0.99 * jnp.minimum(next_q1, next_q2)

    def mse_loss(params, noise_key):
        q = qf.apply(params, obs, act, True, rngs={"dropout": noise_key})
        return jnp.mean((q - y) ** 2)

    loss1, grads1 = jax.value_and_grad(mse_loss)(qf1_state.params, dropout_key_1)
    loss2, grads2 = jax.value_and_grad(mse_loss)(qf2_state.params, dropout_key_2)
    return qf1_state.apply_gradients(grads=grads1), qf2_state.apply_gradients(grads=grads2), y, key


def main() -> None:
    obs, act = jnp.ones((8, 4)), jnp.ones((8, 2))
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    p1, p2 = qf.init(k1, obs, act, False), qf.init(k2, obs, act, False)
    s1 = TrainState.create(apply_fn=qf.apply, params=p1, tx=optax.adam(1e-3))
    s2 = TrainState.create(apply_fn=qf.apply, params=p2, tx=optax.adam(1e-3))
    batch = (obs, act, jnp.zeros(8), obs * 0.5, act * 0.5)
    step = jax.jit(update_critic)
    step_key_1, step_key_2, target_key_1, target_key_2 = jax.random.split(jax.random.PRNGKey(3), 4)
    _, _, y_shared, _ = step(s1, s2, p1, p2, batch, step_key_1, target_key_1)
    _, _, y_other, _ = step(s1, s2, p1, p2, batch, step_key_2, target_key_2)
    assert bool(jnp.array_equal(y_shared, y_other)), "the target key should not matter"
    print("OK")


if __name__ == "__main__":
    main()
