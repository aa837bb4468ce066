# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/nissymori/JAX-CORL/commit/dc87b855022c1238cf705b045145ef4e0929b666 (PR #108 "[ALL] Take rng as input for create_train_state"), carried through to get_dataset as well
# shown: `__main__` builds one `PRNGKey(config.seed)` and splits it into a dataset key, an init key and the training key; `get_dataset(rng, config)` and `create_train_state(rng, ...)` take those keys instead of rebuilding the seed, so the shuffle, the actor init and the first batch use three different keys; prints OK
# style: single-file offline RL script in the CORL style: an IQLConfig dataclass, a get_dataset() that normalises and shuffles transitions, flax.linen actor / double critic / value networks, a create_train_state() that initialises them, an IQLTrainState NamedTuple and a jitted update, a main loop sampling minibatches
"""Implicit Q-Learning on a synthetic offline dataset, single file."""
from dataclasses import dataclass
from typing import NamedTuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState


@dataclass
class IQLConfig:
    seed: int = 42
    batch_size: int = 8
    hidden_dims: int = 32
    max_steps: int = 5
    lr: float = 3e-4
    expectile: float = 0.7
    temperature: float = 3.0
    discount: float = 0.99


class Transition(NamedTuple):
    observations: jnp.ndarray
    actions: jnp.ndarray
    rewards: jnp.ndarray
    next_observations: jnp.ndarray
    dones: jnp.ndarray


def get_dataset(rng, config: IQLConfig, n: int = 64, obs_dim: int = 3, act_dim: int = 2):
    rs = np.random.RandomState(0)
    data = Transition(rs.randn(n, obs_dim), np.tanh(rs.randn(n, act_dim)), rs.randn(n),
                      rs.randn(n, obs_dim), np.zeros(n))
    rng_permute, rng_select = jax.random.split(rng)
    perm = jax.random.permutation(rng_permute, n)
    dataset = jax.tree_util.tree_map(lambda x: jnp.asarray(x)[perm], data)
    return dataset, (rng_permute, perm)


class MLP(nn.Module):
    hidden: int
    out: int

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.hidden)(x))
        return nn.Dense(self.out)(x)


class Critic(nn.Module):
    hidden: int

    @nn.compact
    def __call__(self, obs, act):
        return MLP(self.hidden, 1)(jnp.concatenate([obs, act], -1)).squeeze(-1)


class IQLTrainState(NamedTuple):
    rng: jax.Array
    actor: TrainState
    critic: TrainState
    value: TrainState


def create_train_state(rng, observations, actions, config: IQLConfig) -> IQLTrainState:
    rng, actor_rng, critic_rng, value_rng = jax.random.split(rng, 4)
    actor_model = MLP(config.hidden_dims, actions.shape[-1])
    critic_model = Critic(config.hidden_dims)
    value_model = MLP(config.hidden_dims, 1)
    tx = optax.adam(config.lr)
    actor = TrainState.create(apply_fn=actor_model.apply, params=actor_model.init(actor_rng, observations), tx=tx)
    critic = TrainState.create(apply_fn=critic_model.apply,
                               params=critic_model.init(critic_rng, observations, actions), tx=tx)
    value = TrainState.create(apply_fn=value_model.apply, params=value_model.init(value_rng, observations), tx=tx)
    return IQLTrainState(rng, actor, critic, value), actor_rng


@jax.jit
def update(train_state: IQLTrainState, batch: Transition, config_expectile: float):
    def value_loss(params):
        q = train_state.critic.apply_fn(train_state.critic.params, batch.observations, batch.actions)
        v = train_state.value.apply_fn(params, batch.observations).squeeze(-1)
        diff = q - v
        weight = jnp.where(diff > 0, config_expectile, 1 - config_expectile)
        return (weight * diff ** 2).mean()

    loss, grads = jax.value_and_grad(value_loss)(train_state.value.params)
    return train_state._replace(value=train_state.value.apply_gradients(grads=grads)), loss


def main(config: IQLConfig):
    rng = jax.random.PRNGKey(config.seed)
    rng, dataset_rng, init_rng = jax.random.split(rng, 3)
    dataset, (rng_permute, perm) = get_dataset(dataset_rng, config)
    train_state, actor_rng = create_train_state(init_rng, dataset.observations[:1], dataset.actions[:1], config)
    first = None
    for step in range(config.max_steps):
        rng, subkey = jax.random.split(rng)
        idx = jax.random.randint(subkey, (config.batch_size,), 0, len(dataset.observations))
        first = (subkey, idx) if first is None else first
        batch = jax.tree_util.tree_map(lambda x, idx=idx: x[idx], dataset)
        train_state, loss = update(train_state, batch, config.expectile)
        print(f"step {step}: value loss {float(loss):.4f}")
    return rng_permute, actor_rng, first[0]


if __name__ == "__main__":
    rng_permute, actor_rng, first_batch_key = main(IQLConfig())
    keys = [np.asarray(k) for k in (rng_permute, actor_rng, first_batch_key)]
    assert not any(np.array_equal(a, b) for i, a in enumerate(keys) for b in keys[i + 1:])
    print("OK")
