# recall-case: positive
# rule: OPT012
# source: https://github.com/google-deepmind/optax/issues/1429
# shown: AttributeError: 'dict' object has no attribute 'fast' (inside jax.jit(self.opt.update))
# style: agent class (RL-style), optimizer passed to the constructor, jax.jit(self.opt.update) in another method
import jax
import jax.numpy as jnp
import optax


class ValueAgent:
    def __init__(self, optimizer, params):
        self.opt = optimizer
        self.params = params
        self.opt_state = self.opt.init(params)
        self._update = jax.jit(self.opt.update)

    def td_loss(self, params, obs, target):
        return jnp.mean((obs @ params["w"] + params["b"] - target) ** 2)

    def learn(self, obs, target):
        grads = jax.grad(self.td_loss)(self.params, obs, target)
        updates, self.opt_state = self._update(grads, self.opt_state, self.params)  # expect
        self.params = optax.apply_updates(self.params, updates)


def make_agent(use_lookahead=True):
    params = {"w": jnp.zeros((4, 1)), "b": jnp.zeros(1)}
    base = optax.rmsprop(1e-3)
    opt = optax.lookahead(base, sync_period=5, slow_step_size=0.5) if use_lookahead else base
    return ValueAgent(opt, params)


if __name__ == "__main__":
    agent = make_agent()
    obs = jnp.ones((8, 4))
    for _ in range(3):
        agent.learn(obs, jnp.ones((8, 1)))
    print("HAZARD: no error (not expected)")
