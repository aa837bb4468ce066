# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/luchris429/purejaxrl/issues/35 , https://github.com/mila-iqia/milabench/pull/394
# shown: `train(rng)` rebinds its seed argument to a dummy `jax.random.key(0)` to infer the buffer's shapes; the dummy key draws the probe action, the reset and the step, and then seeds the whole run, so the two vmapped seeds train identically ("no reward variance between seeds"); with jax_debug_key_reuse the probe's reset raises KeyReuseError
# style: PureJaxRL single-file DQN: make_train(config) returning a jitted train(rng), a gymnax-like env class, a flat replay buffer, flax.linen Q-network, lax.scan over update steps, jax.vmap over seeds
"""DQN in one file, PureJaxRL style: the whole training run is one jitted function.

`make_train(config)` builds the env, the buffer and the network and returns
`train(rng)`, which is vmapped over seeds in `main`.
"""
import sys
from typing import Any, NamedTuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training.train_state import TrainState

CONFIG = {
    "NUM_ENVS": 4,
    "BUFFER_SIZE": 256,
    "BUFFER_BATCH_SIZE": 16,
    "TOTAL_TIMESTEPS": 256,
    "EPSILON": 0.3,
    "LR": 1e-3,
    "GAMMA": 0.99,
    "SEED": 7,
    "NUM_SEEDS": 2,
}


class EnvParams(NamedTuple):
    max_steps: int = 20
    noise: float = 0.1


class EnvState(NamedTuple):
    pos: jax.Array
    t: jax.Array


class Discrete:
    def __init__(self, n: int):
        self.n = n

    def sample(self, rng: jax.Array) -> jax.Array:
        return jax.random.randint(rng, (), 0, self.n)


class Corridor:
    """A noisy 1-D walk: reward for standing near the origin."""

    def action_space(self, params: EnvParams | None = None) -> Discrete:
        return Discrete(3)

    def reset(self, rng: jax.Array, params: EnvParams):
        pos = jax.random.uniform(rng, (), minval=-1.0, maxval=1.0)
        state = EnvState(pos, jnp.zeros((), jnp.int32))
        return self.obs(state), state

    def step(self, rng: jax.Array, state: EnvState, action: jax.Array, params: EnvParams):
        pos = state.pos + 0.1 * (action - 1) + params.noise * jax.random.normal(rng, ())
        state = EnvState(pos, state.t + 1)
        done = state.t >= params.max_steps
        reward = -jnp.abs(pos)
        return self.obs(state), state, reward, done, {}

    def obs(self, state: EnvState) -> jax.Array:
        return jnp.stack([state.pos, state.t / 20.0])


class Transition(NamedTuple):
    obs: jax.Array
    action: jax.Array
    reward: jax.Array
    done: jax.Array
    next_obs: jax.Array


class BufferState(NamedTuple):
    data: Transition
    index: jax.Array
    full: jax.Array


def buffer_init(example: Transition, size: int) -> BufferState:
    data = jax.tree_util.tree_map(lambda x: jnp.zeros((size,) + x.shape, x.dtype), example)
    return BufferState(data, jnp.zeros((), jnp.int32), jnp.zeros((), bool))


def buffer_add(state: BufferState, batch: Transition) -> BufferState:
    n = jax.tree_util.tree_leaves(batch)[0].shape[0]
    size = jax.tree_util.tree_leaves(state.data)[0].shape[0]
    idx = (state.index + jnp.arange(n)) % size
    data = jax.tree_util.tree_map(lambda d, b: d.at[idx].set(b), state.data, batch)
    return BufferState(data, (state.index + n) % size, state.full | (state.index + n >= size))


def buffer_sample(state: BufferState, rng: jax.Array, batch_size: int) -> Transition:
    size = jax.tree_util.tree_leaves(state.data)[0].shape[0]
    high = jnp.where(state.full, size, jnp.maximum(state.index, 1))
    idx = jax.random.randint(rng, (batch_size,), 0, high)
    return jax.tree_util.tree_map(lambda d: d[idx], state.data)


class QNetwork(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(64)(x))
        x = nn.relu(nn.Dense(64)(x))
        return nn.Dense(self.action_dim)(x)


class CustomTrainState(TrainState):
    timesteps: int = 0


def make_train(config: dict[str, Any]):
    env, env_params = Corridor(), EnvParams()
    num_updates = config["TOTAL_TIMESTEPS"] // config["NUM_ENVS"]

    def vmap_reset(n_envs):
        return lambda rng: jax.vmap(env.reset, in_axes=(0, None))(jax.random.split(rng, n_envs), env_params)

    def vmap_step(n_envs):
        return lambda rng, state, action: jax.vmap(env.step, in_axes=(0, 0, 0, None))(
            jax.random.split(rng, n_envs), state, action, env_params)

    def train(rng):
        # INIT BUFFER: one env step to learn the transition's shapes
        rng = jax.random.key(0)  # use a dummy rng here
        _action = env.action_space().sample(rng)  # expect
        _obs, _env_state = env.reset(rng, env_params)  # expect
        _next_obs, _, _reward, _done, _ = env.step(rng, _env_state, _action, env_params)  # expect
        _transition = Transition(_obs, _action, _reward, _done, _next_obs)
        buffer_state = buffer_init(_transition, config["BUFFER_SIZE"])

        # INIT NETWORK AND OPTIMIZER
        network = QNetwork(action_dim=env.action_space(env_params).n)
        rng, _rng = jax.random.split(rng)  # expect
        network_params = network.init(_rng, jnp.zeros_like(_obs))
        train_state = CustomTrainState.create(
            apply_fn=network.apply, params=network_params, tx=optax.adam(config["LR"]))

        rng, _rng = jax.random.split(rng)
        obs, env_state = vmap_reset(config["NUM_ENVS"])(_rng)

        def _update_step(runner_state, unused):
            train_state, buffer_state, env_state, last_obs, rng = runner_state
            rng, rng_a, rng_e, rng_s, rng_b = jax.random.split(rng, 5)
            q_vals = network.apply(train_state.params, last_obs)
            greedy = jnp.argmax(q_vals, axis=-1)
            explore = jax.random.uniform(rng_e, greedy.shape) < config["EPSILON"]
            random_actions = jax.random.randint(rng_a, greedy.shape, 0, q_vals.shape[-1])
            action = jnp.where(explore, random_actions, greedy)
            obs, env_state, reward, done, _ = vmap_step(config["NUM_ENVS"])(rng_s, env_state, action)
            buffer_state = buffer_add(buffer_state, Transition(last_obs, action, reward, done, obs))

            batch = buffer_sample(buffer_state, rng_b, config["BUFFER_BATCH_SIZE"])

            def _loss_fn(params):
                q_next = network.apply(params, batch.next_obs)
                target = batch.reward + config["GAMMA"] * (1 - batch.done) * jnp.max(q_next, axis=-1)
                q = network.apply(params, batch.obs)
                chosen = jnp.take_along_axis(q, batch.action[:, None], axis=-1)[:, 0]
                return jnp.mean((chosen - jax.lax.stop_gradient(target)) ** 2)

            loss, grads = jax.value_and_grad(_loss_fn)(train_state.params)
            train_state = train_state.apply_gradients(grads=grads)
            train_state = train_state.replace(timesteps=train_state.timesteps + config["NUM_ENVS"])
            metrics = {"loss": loss, "reward": reward.mean()}
            return (train_state, buffer_state, env_state, obs, rng), metrics

        runner_state = (train_state, buffer_state, env_state, obs, rng)
        runner_state, metrics = jax.lax.scan(_update_step, runner_state, None, num_updates)
        return {"runner_state": runner_state, "metrics": metrics}

    return train


def main() -> None:
    rng = jax.random.key(CONFIG["SEED"])
    rngs = jax.random.split(rng, CONFIG["NUM_SEEDS"])
    train_vjit = jax.jit(jax.vmap(make_train(CONFIG)))
    outs = jax.block_until_ready(train_vjit(rngs))
    rewards = outs["metrics"]["reward"]
    print("mean reward per seed:", rewards.mean(axis=-1))
    if bool(jnp.array_equal(rewards[0], rewards[1])):
        print("HAZARD: both seeds produced the identical reward curve: the dummy key replaced the seed")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        make_train(CONFIG)(jax.random.key(CONFIG["SEED"]))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
