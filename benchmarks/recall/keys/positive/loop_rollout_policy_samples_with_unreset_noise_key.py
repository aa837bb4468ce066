# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/araffin/sbx/commit/9b34266d01368b97ee442fffb02b4575a6091bb7
# shown: every rollout step drew the same standard-normal exploration noise (the noise key is only reset for gSDE); KeyReuseError under jax_debug_key_reuse
# style: on-policy RL trainer class; Flax linen actor returning a numpyro Normal; a jitted sampler; Python rollout loop
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import numpyro.distributions as dist


class Actor(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, obs):
        h = nn.tanh(nn.Dense(32)(obs))
        mean = nn.Dense(self.action_dim)(h)
        log_std = self.param("log_std", nn.initializers.zeros, (self.action_dim,))
        return dist.Normal(mean, jnp.exp(log_std)).to_event(1)


class Policy:
    def __init__(self, obs_dim, action_dim, use_sde, key):
        self.actor = Actor(action_dim)
        self.use_sde = use_sde
        init_key, self.key = jax.random.split(key)
        self.params = self.actor.init(init_key, jnp.zeros((1, obs_dim)))
        self.reset_noise()

    def reset_noise(self):
        self.key, self.noise_key = jax.random.split(self.key)

    def predict_all(self, obs, key):
        return self._predict_all(self.actor, self.params, obs, key)

    @staticmethod
    @partial(jax.jit, static_argnames=("actor",))
    def _predict_all(actor, params, obs, key):
        action_dist = actor.apply(params, obs)
        actions = action_dist.sample(key)
        standard_noise = (actions - action_dist.mean) / jnp.sqrt(action_dist.variance)
        return actions, action_dist.log_prob(actions), standard_noise


class OnPolicyTrainer:
    def __init__(self, policy, n_envs, obs_dim):
        self.policy = policy
        self.n_envs = n_envs
        self.obs_dim = obs_dim

    def collect_rollouts(self, n_steps):
        obs = np.zeros((self.n_envs, self.obs_dim), dtype=np.float32)
        noises = []
        if self.policy.use_sde:
            self.policy.reset_noise()
        for step in range(n_steps):
            actions, log_probs, noise = self.policy.predict_all(obs, self.policy.noise_key)  # expect
            noises.append(np.asarray(noise))
            obs = obs + 0.1 * np.tile(np.asarray(actions), (1, 2))  # a toy environment step
        return noises


if __name__ == "__main__":
    policy = Policy(obs_dim=4, action_dim=2, use_sde=False, key=jax.random.key(0))
    noises = OnPolicyTrainer(policy, n_envs=3, obs_dim=4).collect_rollouts(n_steps=3)
    if np.allclose(noises[0], noises[1], atol=1e-5) and np.allclose(noises[1], noises[2], atol=1e-5):
        print("HAZARD: every rollout step drew the same standard-normal exploration noise from policy.noise_key")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        OnPolicyTrainer(Policy(4, 2, False, jax.random.key(1)), n_envs=3, obs_dim=4).collect_rollouts(n_steps=2)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        raise SystemExit(1)
