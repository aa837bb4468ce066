# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/instadeepai/Mava/commit/e49307d065a1998d7e3808ad6b42198d7e67b6a1
# shown: under jax.jit the epoch scan runs silently; the same update run eagerly (jax.disable_jit) with jax_debug_key_reuse raises KeyReuseError "Previously-consumed key passed to random_split": the minibatch permutation draws from the rng that the epoch carry splits again next epoch (shuffle_rng is never used)
# style: PureJaxRL-style recurrent IPPO: config dict, flax.linen GRU actor-critic, make_train closure, nested lax.scan over update epochs and minibatches
"""Recurrent IPPO learner (update half) on pre-collected multi-agent trajectories."""
import functools
import sys
from typing import NamedTuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

config = {
    "LR": 5e-4,
    "NUM_ENVS": 8,
    "NUM_STEPS": 16,
    "UPDATE_EPOCHS": 3,
    "NUM_MINIBATCHES": 2,
    "CLIP_EPS": 0.2,
    "GRU_HIDDEN_DIM": 16,
    "OBS_DIM": 6,
    "NUM_ACTIONS": 5,
    "SEED": 0,
}


class ScannedRNN(nn.Module):
    @functools.partial(
        nn.scan, variable_broadcast="params", in_axes=0, out_axes=0, split_rngs={"params": False}
    )
    @nn.compact
    def __call__(self, carry, x):
        ins, resets = x
        carry = jnp.where(resets[:, None], jnp.zeros_like(carry), carry)
        new_carry, y = nn.GRUCell(features=carry.shape[-1])(carry, ins)
        return new_carry, y


class ActorCriticRNN(nn.Module):
    num_actions: int
    hidden: int

    @nn.compact
    def __call__(self, hstate, x):
        obs, dones = x
        emb = nn.relu(nn.Dense(self.hidden)(obs))
        hstate, emb = ScannedRNN()(hstate, (emb, dones))
        logits = nn.Dense(self.num_actions)(emb)
        value = nn.Dense(1)(emb)
        return hstate, logits, jnp.squeeze(value, -1)


class Transition(NamedTuple):
    done: jax.Array
    action: jax.Array
    log_prob: jax.Array
    obs: jax.Array


def make_update(config, network, tx):
    def _update_epoch(update_state, unused):
        def _update_minibatch(train_state, batch_info):
            params, opt_state = train_state
            init_hstate, traj_batch, advantages = batch_info

            def _loss_fn(params):
                _, logits, _ = network.apply(params, init_hstate[0], (traj_batch.obs, traj_batch.done))
                log_prob = jnp.take_along_axis(
                    jax.nn.log_softmax(logits), traj_batch.action[..., None], -1
                )[..., 0]
                ratio = jnp.exp(log_prob - traj_batch.log_prob)
                clipped = jnp.clip(ratio, 1 - config["CLIP_EPS"], 1 + config["CLIP_EPS"])
                return -jnp.minimum(ratio * advantages, clipped * advantages).mean()

            loss, grads = jax.value_and_grad(_loss_fn)(params)
            updates, opt_state = tx.update(grads, opt_state)
            return (optax.apply_updates(params, updates), opt_state), loss

        params, opt_state, init_hstate, traj_batch, advantages, rng = update_state
        rng, shuffle_rng = jax.random.split(rng)

        # SHUFFLE MINIBATCHES (over environments, keeping sequences whole)
        permutation = jax.random.permutation(rng, config["NUM_ENVS"])  # expect
        batch = (init_hstate, traj_batch, advantages)
        shuffled_batch = jax.tree_util.tree_map(lambda x: jnp.take(x, permutation, axis=1), batch)
        minibatches = jax.tree_util.tree_map(
            lambda x: jnp.swapaxes(
                jnp.reshape(x, [x.shape[0], config["NUM_MINIBATCHES"], -1] + list(x.shape[2:])), 1, 0
            ),
            shuffled_batch,
        )
        (params, opt_state), losses = jax.lax.scan(_update_minibatch, (params, opt_state), minibatches)
        update_state = (params, opt_state, init_hstate, traj_batch, advantages, rng)  # expect
        return update_state, losses

    def update(params, opt_state, init_hstate, traj_batch, advantages, rng):
        update_state = (params, opt_state, init_hstate, traj_batch, advantages, rng)
        update_state, losses = jax.lax.scan(_update_epoch, update_state, None, config["UPDATE_EPOCHS"])
        return update_state[0], update_state[1], losses

    return update


def collect_dummy_rollout(rng, network, params):
    obs_rng, act_rng = jax.random.split(rng)
    obs = jax.random.normal(obs_rng, (config["NUM_STEPS"], config["NUM_ENVS"], config["OBS_DIM"]))
    dones = jnp.zeros((config["NUM_STEPS"], config["NUM_ENVS"]), bool)
    hstate = jnp.zeros((config["NUM_ENVS"], config["GRU_HIDDEN_DIM"]))
    _, logits, values = network.apply(params, hstate, (obs, dones))
    action = jax.random.categorical(act_rng, logits)
    log_prob = jnp.take_along_axis(jax.nn.log_softmax(logits), action[..., None], -1)[..., 0]
    advantages = -values
    return hstate[None], Transition(dones, action, log_prob, obs), advantages


def main() -> None:
    rng = jax.random.key(config["SEED"])
    rng, init_rng, rollout_rng, update_rng = jax.random.split(rng, 4)
    network = ActorCriticRNN(config["NUM_ACTIONS"], config["GRU_HIDDEN_DIM"])
    hstate = jnp.zeros((config["NUM_ENVS"], config["GRU_HIDDEN_DIM"]))
    init_x = (
        jnp.zeros((1, config["NUM_ENVS"], config["OBS_DIM"])),
        jnp.zeros((1, config["NUM_ENVS"]), bool),
    )
    params = network.init(init_rng, hstate, init_x)
    tx = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(config["LR"]))
    opt_state = tx.init(params)
    init_hstate, traj_batch, advantages = collect_dummy_rollout(rollout_rng, network, params)

    update = make_update(config, network, tx)
    _, _, losses = jax.jit(update)(params, opt_state, init_hstate, traj_batch, advantages, update_rng)
    print("jitted update ran, losses per epoch:", losses.mean(axis=1))

    jax.config.update("jax_debug_key_reuse", True)
    try:
        with jax.disable_jit():
            update(params, opt_state, init_hstate, traj_batch, advantages, jax.random.key(7))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
