# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/hr0nix/omega/pull/14 ("Fix rng usage": "RNGs in MuZero has been broken as well: all the networks used a fixed key"), fix commit https://github.com/hr0nix/omega/commit/4e6b7054002b325487c2cb40f20156d616a667a4
# shown: the agent builds its TrainState with `functools.partial(model.apply, method=..., rngs={'dropout': self.next_random_key()})` for each network; the key is drawn once, when the state is built, so every unroll step and every training step applies the same dropout mask (masks of steps 0 and 1 printed identical)
# style: agent class with a stateful `next_random_key()`, a flax.linen MuZero-like model with representation/dynamics/prediction methods, a TrainState subclass holding per-method apply partials as static fields, a jitted train step unrolling K steps
"""A small MuZero learner: representation, dynamics and prediction networks
behind one flax module, trained on random trajectories with a K-step unroll."""
import functools
from collections.abc import Callable
from typing import Any

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


class MuZeroModel(nn.Module):
    num_actions: int
    latent_dim: int = 32
    dropout_rate: float = 0.3

    def setup(self):
        self.repr_dense = nn.Dense(self.latent_dim)
        self.dyn_dense = nn.Dense(self.latent_dim)
        self.reward_head = nn.Dense(1)
        self.policy_head = nn.Dense(self.num_actions)
        self.value_head = nn.Dense(1)
        self.dropout = nn.Dropout(self.dropout_rate)

    def representation(self, observation, deterministic=False):
        latent = self.dropout(self.repr_dense(observation), deterministic=deterministic)
        return jnp.tanh(latent)

    def dynamics(self, latent, action, deterministic=False):
        x = jnp.concatenate([latent, jax.nn.one_hot(action, self.num_actions)], axis=-1)
        next_latent = jnp.tanh(self.dropout(self.dyn_dense(x), deterministic=deterministic))
        return next_latent, self.reward_head(next_latent)[..., 0]

    def prediction(self, latent, deterministic=False):
        return jax.nn.log_softmax(self.policy_head(latent)), self.value_head(latent)[..., 0]

    def __call__(self, observation, action):
        latent = self.representation(observation, deterministic=True)
        next_latent, _ = self.dynamics(latent, action, deterministic=True)
        return self.prediction(next_latent)


class MuZeroAgent:
    class TrainState(train_state.TrainState):
        representation_fn: Callable = flax.struct.field(pytree_node=False)
        dynamics_fn: Callable = flax.struct.field(pytree_node=False)
        prediction_fn: Callable = flax.struct.field(pytree_node=False)

    def __init__(self, obs_dim: int = 8, num_actions: int = 4, num_unroll_steps: int = 3, seed: int = 0):
        self._random_key = jax.random.PRNGKey(seed)
        self._obs_dim, self._num_actions, self._num_unroll_steps = obs_dim, num_actions, num_unroll_steps
        self._build_model()

    def next_random_key(self):
        self._random_key, key = jax.random.split(self._random_key)
        return key

    def _build_model(self):
        self._model = MuZeroModel(num_actions=self._num_actions)
        params = self._model.init(
            {"params": self.next_random_key(), "dropout": self.next_random_key()},
            jnp.zeros((1, self._obs_dim)), jnp.zeros((1,), jnp.int32))
        self._train_state = self.TrainState.create(
            params=params,
            tx=optax.adamw(1e-3),
            apply_fn=self._model.apply,
            representation_fn=functools.partial(
                self._model.apply, method=self._model.representation, rngs={"dropout": self.next_random_key()}),  # expect
            dynamics_fn=functools.partial(
                self._model.apply, method=self._model.dynamics, rngs={"dropout": self.next_random_key()}),  # expect
            prediction_fn=functools.partial(self._model.apply, method=self._model.prediction),
        )

    @staticmethod
    @functools.partial(jax.jit, static_argnums=(2,))
    def _train_jit(state: "MuZeroAgent.TrainState", batch: dict[str, Any], num_unroll_steps: int):
        def loss_fn(params):
            latent = state.representation_fn(params, batch["observations"][:, 0])  # expect
            masks = [latent != 0]
            loss = 0.0
            for k in range(num_unroll_steps):
                log_policy, value = state.prediction_fn(params, latent)
                loss += -jnp.mean(jnp.sum(batch["policy_targets"][:, k] * log_policy, axis=-1))
                loss += jnp.mean((value - batch["value_targets"][:, k]) ** 2)
                latent, reward = state.dynamics_fn(params, latent, batch["actions"][:, k])  # expect
                masks.append(latent != 0)
                loss += jnp.mean((reward - batch["rewards"][:, k]) ** 2)
            return loss, masks

        (loss, masks), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
        return state.apply_gradients(grads=grads), loss, masks

    def train_on_batch(self, batch):
        self._train_state, loss, masks = self._train_jit(self._train_state, batch, self._num_unroll_steps)
        return loss, masks


def random_batch(rng: np.random.Generator, batch_size=4, obs_dim=8, num_actions=4, unroll=3):
    policy = rng.dirichlet(np.ones(num_actions), size=(batch_size, unroll)).astype(np.float32)
    return {
        "observations": jnp.asarray(rng.normal(size=(batch_size, unroll + 1, obs_dim)), jnp.float32),
        "actions": jnp.asarray(rng.integers(0, num_actions, size=(batch_size, unroll))),
        "policy_targets": jnp.asarray(policy),
        "value_targets": jnp.asarray(rng.normal(size=(batch_size, unroll)), jnp.float32),
        "rewards": jnp.asarray(rng.normal(size=(batch_size, unroll)), jnp.float32),
    }


def main() -> None:
    agent = MuZeroAgent()
    data_rng = np.random.default_rng(0)
    history = []
    for step in range(3):
        loss, masks = agent.train_on_batch(random_batch(data_rng))
        history.append(masks)
        print(f"step {step}: loss {float(loss):.3f}")
    first, second = history[0], history[1]
    print("dropout pattern of the representation, steps 0 and 1:",
          first[0][0, :8].astype(int), second[0][0, :8].astype(int))
    same_repr = bool(jnp.array_equal(first[0], second[0]))
    same_dyn = all(bool(jnp.array_equal(first[1], m)) for m in first[1:] + second[1:])
    if same_repr and same_dyn:
        print("HAZARD: every training step (and every unroll step) used the dropout key bound into the partials")


if __name__ == "__main__":
    main()
