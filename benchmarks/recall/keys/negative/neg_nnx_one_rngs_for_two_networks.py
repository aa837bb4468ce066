# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/google/flax/pull/5344
# shown: runs with jax_debug_key_reuse on; actor and critic built from one nnx.Rngs object draw from an advancing stream; their kernels differ; prints OK
# style: Flax NNX actor-critic
import jax
import jax.numpy as jnp
from flax import nnx

jax.config.update("jax_debug_key_reuse", True)


class Torso(nnx.Module):
    def __init__(self, din, dout, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(din, 16, rngs=rngs)
        self.out = nnx.Linear(16, dout, rngs=rngs)


def build_agent(key, obs_dim, num_actions):
    rngs = nnx.Rngs(key)
    return Torso(obs_dim, num_actions, rngs=rngs), Torso(obs_dim, 1, rngs=rngs)


if __name__ == "__main__":
    actor, critic = build_agent(jax.random.key(0), 4, 2)
    assert not bool(jnp.all(actor.hidden.kernel[...] == critic.hidden.kernel[...]))
    print("OK")
