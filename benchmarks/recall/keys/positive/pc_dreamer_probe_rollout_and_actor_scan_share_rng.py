# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/epignatelli/navix/commit/ad2760151bd45eaaec9b4294b853c5c6c56af707 ("fix: split off a dedicated PRNG key for the return-norm probe rollout": "Dreamer.update() passed rng unsplit into the return-normalization probe rollout (_actor_critic_rollout), then reused the same rng as the seed for the actor_step scan's carry a few lines later")
# shown: `self._actor_critic_rollout(model, actor, start, rng)` imagines a trajectory from `rng` (a scan that splits it and samples categorical actions), then `jax.lax.scan(actor_step, (ts.actor, rng), ...)` splits the same `rng` again: the probe's imagined step t and actor update t split one carry key (printed: `HAZARD: imagined probe step t and actor update t use the same key, for every t`); under jax_debug_key_reuse the jitted update raises KeyReuseError
# style: world-model RL agent module: a frozen HParams dataclass, flax.linen world model / actor / critic, a flax.struct train-state dataclass, a Dreamer class whose jitted update() runs a model-update scan, a return-normalisation probe and an actor-update scan, a training loop
"""A small Dreamer-style agent: imagined rollouts train the actor."""
import sys
from dataclasses import dataclass

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import struct
from flax.training.train_state import TrainState


@dataclass(frozen=True)
class HParams:
    hidden_size: int = 16
    num_actions: int = 3
    horizon: int = 4
    num_actor_updates: int = 3
    lr: float = 1e-3


class WorldModel(nn.Module):
    hidden: int

    @nn.compact
    def __call__(self, feat, action_onehot):
        x = jnp.concatenate([feat, action_onehot], -1)
        nxt = jnp.tanh(nn.Dense(self.hidden)(x))
        return nxt, nn.Dense(1)(nxt).squeeze(-1)


class Actor(nn.Module):
    num_actions: int

    @nn.compact
    def __call__(self, feat):
        return nn.Dense(self.num_actions)(nn.relu(nn.Dense(16)(feat)))


@struct.dataclass
class DreamerTrainState:
    model_params: dict
    actor: TrainState
    rng: jax.Array


class Dreamer:
    def __init__(self, hp: HParams):
        self.hp = hp
        self.model = WorldModel(hp.hidden_size)
        self.actor = Actor(hp.num_actions)

    def init(self, key) -> DreamerTrainState:
        k_model, k_actor, k_state = jax.random.split(key, 3)
        feat = jnp.zeros((1, self.hp.hidden_size))
        act = jnp.zeros((1, self.hp.num_actions))
        model_params = self.model.init(k_model, feat, act)
        actor = TrainState.create(apply_fn=self.actor.apply, params=self.actor.init(k_actor, feat),
                                  tx=optax.adam(self.hp.lr))
        return DreamerTrainState(model_params, actor, k_state)

    def _actor_critic_rollout(self, model_params, actor_params, start_feats, rng):
        """Imagine `horizon` steps: sample an action from the actor, step the model."""

        def rollout_step(carry, _):
            feat, rng = carry
            rng, key = jax.random.split(rng)
            logits = self.actor.apply(actor_params, feat)
            action = jax.random.categorical(key, logits)
            feat, rew = self.model.apply(model_params, feat, jax.nn.one_hot(action, self.hp.num_actions))
            return (feat, rng), (action, rew, jax.nn.log_softmax(logits)[jnp.arange(len(action)), action], key)

        _, (actions, rews, logps, keys) = jax.lax.scan(rollout_step, (start_feats, rng), None,
                                                       length=self.hp.horizon)
        return actions, rews, logps, keys

    def update(self, ts: DreamerTrainState, start_feats):
        rng = ts.rng
        # Return-normalisation probe: a quick imagined return under the current actor.
        _, probe_rews, _, probe_keys = self._actor_critic_rollout(  # expect
            ts.model_params, ts.actor.params, start_feats, rng)
        scale = jnp.maximum(jnp.percentile(probe_rews.sum(0), 95) - jnp.percentile(probe_rews.sum(0), 5), 1.0)

        def actor_step(carry, _):
            actor, rng = carry
            rng, key = jax.random.split(rng)

            def loss_fn(params):
                _, rews, logps, _ = self._actor_critic_rollout(ts.model_params, params, start_feats, key)
                ret = jax.lax.stop_gradient(rews.sum(0) / scale)
                return -(logps.sum(0) * ret).mean()

            loss, grads = jax.value_and_grad(loss_fn)(actor.params)
            return (actor.apply_gradients(grads=grads), rng), (loss, key)

        (actor, rng), (losses, actor_keys) = jax.lax.scan(  # expect
            actor_step, (ts.actor, rng), None, length=self.hp.num_actor_updates)
        return ts.replace(actor=actor, rng=rng), losses, probe_keys, actor_keys


def train(typed_keys: bool, iterations: int = 2):
    make_key = jax.random.key if typed_keys else jax.random.PRNGKey
    agent = Dreamer(HParams())
    ts = agent.init(make_key(0))
    update = jax.jit(agent.update)
    start_feats = jnp.asarray(np.random.RandomState(0).randn(5, agent.hp.hidden_size), jnp.float32)
    for it in range(iterations):
        ts, losses, probe_keys, actor_keys = update(ts, start_feats)
        print(f"iteration {it}: actor loss {float(losses[-1]):.4f}")
    return probe_keys, actor_keys


if __name__ == "__main__":
    probe_keys, actor_keys = train(typed_keys=False)
    # probe step t and actor update t split the same carry rng
    if all(np.array_equal(probe_keys[t], actor_keys[t]) for t in range(len(actor_keys))):
        print("HAZARD: imagined probe step t and actor update t use the same key, for every t")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        train(typed_keys=True)
    except jax.errors.KeyReuseError as err:
        print(f"HAZARD: KeyReuseError: {str(err).splitlines()[0]}")
        sys.exit(0)
    print("no KeyReuseError")
