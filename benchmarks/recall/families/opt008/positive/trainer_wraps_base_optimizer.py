# recall-case: positive
# rule: OPT008
# source: https://github.com/sanchit-gandhi/seq2seq-speech/pull/7
# shown: HAZARD: updates with the trainer's clip equal the bare optimizer's (max diff 0.0) on a gradient of norm 2000
# style: trainer class: a base optimizer handed to the constructor, clipping added around it in __init__, used in another method
import jax
import jax.numpy as jnp
import optax


class Trainer:
    def __init__(self, base_optimizer, max_norm=1.0):
        self.base_optimizer = base_optimizer
        self.tx = optax.chain(self.base_optimizer, optax.clip_by_global_norm(max_norm))  # expect

    def updates(self, params, grads_seq):
        state = self.tx.init(params)
        outs = []
        for g in grads_seq:
            u, state = self.tx.update(g, state, params)
            outs.append(u)
        return jnp.stack(outs)


if __name__ == "__main__":
    params = jnp.zeros(4)
    gs = [jnp.ones(4) * v for v in (0.1, 1000.0, 0.1, -0.2)]
    base = optax.rmsprop(1e-3)
    ours = Trainer(base).updates(params, gs)
    bare_state = base.init(params)
    bare = []
    for g in gs:
        u, bare_state = base.update(g, bare_state, params)
        bare.append(u)
    diff = float(jnp.abs(ours - jnp.stack(bare)).max())
    print("max |trainer - bare optimizer| =", diff)
    if diff == 0.0:
        print("HAZARD: the trainer's clip follows the optimizer and never clips the gradients")
