# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/adaptive-intelligent-robotics/QDax/commit/b77eb55c722bc2380d50f6bf7c76f30abf307960
# shown: KeyReuseError under jax_debug_key_reuse: the key the alpha loss sampled actions with is handed back and split by the critic update
# style: Haiku SAC learner class; each update method splits its key, returns "a new key" to the next one
import sys

import haiku as hk
import jax
import jax.numpy as jnp
import optax


def actor_fn(obs):
    out = hk.nets.MLP([32, 4])(obs)
    mean, log_std = jnp.split(out, 2, axis=-1)
    return mean, jnp.clip(log_std, -5.0, 2.0)


def critic_fn(obs, action):
    return hk.nets.MLP([32, 1])(jnp.concatenate([obs, action], axis=-1))


actor = hk.without_apply_rng(hk.transform(actor_fn))
critic = hk.without_apply_rng(hk.transform(critic_fn))


def sample_action(actor_params, obs, key):
    mean, log_std = actor.apply(actor_params, obs)
    noise = jax.random.normal(key, mean.shape)
    action = jnp.tanh(mean + jnp.exp(log_std) * noise)
    log_prob = jnp.sum(-0.5 * noise**2 - log_std - 0.5 * jnp.log(2 * jnp.pi), axis=-1)
    return action, log_prob


def alpha_loss_fn(log_alpha, actor_params, obs, key):
    _, log_prob = sample_action(actor_params, obs, key)
    return jnp.mean(-jnp.exp(log_alpha) * (log_prob - 2.0))


def critic_loss_fn(critic_params, actor_params, log_alpha, batch, key):
    next_action, next_log_prob = sample_action(actor_params, batch["next_obs"], key)
    target = batch["reward"] + 0.99 * (
        critic.apply(critic_params, batch["next_obs"], next_action)[:, 0] - jnp.exp(log_alpha) * next_log_prob
    )
    q = critic.apply(critic_params, batch["obs"], batch["action"])[:, 0]
    return jnp.mean((q - jax.lax.stop_gradient(target)) ** 2)


class SACLearner:
    def __init__(self, lr=3e-4):
        self.alpha_opt = optax.adam(lr)
        self.critic_opt = optax.adam(lr)

    def update_alpha(self, state, batch, random_key):
        random_key, subkey = jax.random.split(random_key)
        loss, grad = jax.value_and_grad(alpha_loss_fn)(
            state["log_alpha"], state["actor"], batch["obs"], random_key  # expect
        )
        updates, opt_state = self.alpha_opt.update(grad, state["alpha_opt"])
        state = dict(state, log_alpha=optax.apply_updates(state["log_alpha"], updates), alpha_opt=opt_state)
        return state, loss, random_key

    def update_critic(self, state, batch, random_key):
        random_key, subkey = jax.random.split(random_key)  # expect
        loss, grad = jax.value_and_grad(critic_loss_fn)(
            state["critic"], state["actor"], state["log_alpha"], batch, subkey
        )
        updates, opt_state = self.critic_opt.update(grad, state["critic_opt"])
        state = dict(state, critic=optax.apply_updates(state["critic"], updates), critic_opt=opt_state)
        return state, loss, random_key

    def update(self, state, batch, random_key):
        state, alpha_loss, random_key = self.update_alpha(state, batch, random_key)
        state, critic_loss, random_key = self.update_critic(state, batch, random_key)
        return state, {"alpha_loss": alpha_loss, "critic_loss": critic_loss}, random_key


def init_state(learner, key, obs_dim=3, action_dim=2):
    actor_key, critic_key = jax.random.split(key)
    obs, action = jnp.zeros((1, obs_dim)), jnp.zeros((1, action_dim))
    actor_params = actor.init(actor_key, obs)
    critic_params = critic.init(critic_key, obs, action)
    log_alpha = jnp.zeros(())
    return {
        "actor": actor_params, "critic": critic_params, "log_alpha": log_alpha,
        "alpha_opt": learner.alpha_opt.init(log_alpha), "critic_opt": learner.critic_opt.init(critic_params),
    }


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    learner = SACLearner()
    init_key, data_key, train_key = jax.random.split(jax.random.key(0), 3)
    state = init_state(learner, init_key)
    obs_key, next_key, act_key, rew_key = jax.random.split(data_key, 4)
    batch = {
        "obs": jax.random.normal(obs_key, (8, 3)), "next_obs": jax.random.normal(next_key, (8, 3)),
        "action": jax.random.uniform(act_key, (8, 2), minval=-1.0, maxval=1.0),
        "reward": jax.random.normal(rew_key, (8,)),
    }
    try:
        learner.update(state, batch, train_key)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
