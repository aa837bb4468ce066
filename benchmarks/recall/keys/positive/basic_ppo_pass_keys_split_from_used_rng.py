# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/kscalelabs/ksim/commit/9e0421b348a55f309fde447c3b9371b4793a1510
# shown: the shuffling passes' keys (split(rng, num_passes)) equal the first on-policy keys (split(rng, num_envs)) of the same rng, then KeyReuseError under jax_debug_key_reuse
# style: task class for PPO on an Equinox actor-critic: config dataclass, a `_single_step` method that computes on-policy variables with a vmapped method and runs shuffled minibatch passes with lax.scan
"""PPO update step of an RL task (trajectories already collected)."""
import sys
from dataclasses import dataclass
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
import optax
from jaxtyping import Array, PRNGKeyArray


@dataclass(frozen=True)
class PPOConfig:
    num_envs: int = 8
    rollout_length: int = 10
    obs_size: int = 5
    action_size: int = 2
    num_passes: int = 3
    num_batches: int = 2
    entropy_samples: int = 4
    learning_rate: float = 3e-4


class Trajectory(NamedTuple):
    obs: Array
    action: Array
    reward: Array


class PPOVariables(NamedTuple):
    log_probs: Array
    entropy: Array


class ActorCritic(eqx.Module):
    actor: eqx.nn.MLP
    critic: eqx.nn.MLP

    def __init__(self, cfg: PPOConfig, *, key: PRNGKeyArray):
        actor_key, critic_key = jax.random.split(key)
        self.actor = eqx.nn.MLP(cfg.obs_size, 2 * cfg.action_size, 32, 2, key=actor_key)
        self.critic = eqx.nn.MLP(cfg.obs_size, 1, 32, 2, key=critic_key)

    def policy(self, obs: Array) -> tuple[Array, Array]:
        out = self.actor(obs)
        mean, log_std = jnp.split(out, 2)
        return mean, jnp.exp(jnp.clip(log_std, -4.0, 1.0))


class PPOTask:
    def __init__(self, config: PPOConfig):
        self.config = config
        self.optimizer = optax.adam(config.learning_rate)

    def get_ppo_variables(self, model: ActorCritic, trajectory: Trajectory, rng: PRNGKeyArray) -> PPOVariables:
        mean, std = jax.vmap(model.policy)(trajectory.obs)
        pre_tanh = jnp.arctanh(jnp.clip(trajectory.action, -0.999, 0.999))
        log_probs = jax.scipy.stats.norm.logpdf(pre_tanh, mean, std).sum(-1)
        # Squashed-Gaussian entropy has no closed form: estimate it by sampling.
        eps = jax.random.normal(rng, (self.config.entropy_samples,) + mean.shape)
        samples = jnp.tanh(mean + std * eps)
        entropy = -jnp.log(1 - samples**2 + 1e-6).mean(0).sum(-1) + jnp.log(std).sum(-1)
        return PPOVariables(log_probs, entropy)

    def update_model_on_batch(self, model, opt_state, trajectories, on_policy_variables, rng):
        def loss_fn(model):
            off_policy_variables = jax.vmap(self.get_ppo_variables, in_axes=(None, 0, 0))(
                model, trajectories, jax.random.split(rng, trajectories.obs.shape[0])
            )
            ratio = jnp.exp(off_policy_variables.log_probs - on_policy_variables.log_probs)
            adv = trajectories.reward - trajectories.reward.mean()
            return -(jnp.minimum(ratio * adv, jnp.clip(ratio, 0.8, 1.2) * adv)).mean() - 0.01 * off_policy_variables.entropy.mean()

        loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
        updates, opt_state = self.optimizer.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, updates), opt_state, loss

    def _single_step(self, model, opt_state, trajectories: Trajectory, rng: PRNGKeyArray):
        # Runs the policy model on the trajectory to get the PPO variables.
        on_policy_rngs = jax.random.split(rng, trajectories.obs.shape[0])  # expect
        ppo_fn = jax.vmap(self.get_ppo_variables, in_axes=(None, 0, 0))
        on_policy_variables = jax.lax.stop_gradient(ppo_fn(model, trajectories, on_policy_rngs))

        params, static = eqx.partition(model, eqx.is_array)

        def update_model_across_batches(carry, pass_rng):
            params, opt_state = carry
            shuffle_rng, batch_rng = jax.random.split(pass_rng)
            indices = jax.random.permutation(shuffle_rng, self.config.num_envs)
            indices_by_batch = indices.reshape(self.config.num_batches, -1)
            batch_rngs = jax.random.split(batch_rng, self.config.num_batches)
            losses = []
            for b in range(self.config.num_batches):
                idx = indices_by_batch[b]
                batch = jax.tree.map(lambda x: x[idx], trajectories)
                batch_vars = jax.tree.map(lambda x: x[idx], on_policy_variables)
                new_model, opt_state, loss = self.update_model_on_batch(
                    eqx.combine(params, static), opt_state, batch, batch_vars, batch_rngs[b]
                )
                params = eqx.filter(new_model, eqx.is_array)
                losses.append(loss)
            return (params, opt_state), jnp.stack(losses)

        (params, opt_state), losses = jax.lax.scan(
            update_model_across_batches,
            (params, opt_state),
            xs=jax.random.split(rng, self.config.num_passes),  # expect
        )
        return eqx.combine(params, static), opt_state, losses, on_policy_rngs


def main() -> None:
    cfg = PPOConfig()
    task = PPOTask(cfg)
    key = jax.random.key(0)
    key, model_key, data_key, step_key = jax.random.split(key, 4)
    model = ActorCritic(cfg, key=model_key)
    opt_state = task.optimizer.init(eqx.filter(model, eqx.is_array))
    k1, k2, k3 = jax.random.split(data_key, 3)
    trajectories = Trajectory(
        obs=jax.random.normal(k1, (cfg.num_envs, cfg.rollout_length, cfg.obs_size)),
        action=jnp.tanh(jax.random.normal(k2, (cfg.num_envs, cfg.rollout_length, cfg.action_size))),
        reward=jax.random.normal(k3, (cfg.num_envs, cfg.rollout_length)),
    )

    step = eqx.filter_jit(task._single_step)
    model, opt_state, losses, on_policy_rngs = step(model, opt_state, trajectories, step_key)
    pass_rngs = jax.random.split(step_key, cfg.num_passes)
    print("losses per pass:", losses.mean(axis=1))
    if bool(jnp.array_equal(jax.random.key_data(pass_rngs), jax.random.key_data(on_policy_rngs[: cfg.num_passes]))):
        print("HAZARD: the shuffling passes' keys are the first", cfg.num_passes, "on-policy keys")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        step(model, opt_state, trajectories, jax.random.key(1))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
