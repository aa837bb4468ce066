# recall-case: negative
# rule: OPT008
# source: https://github.com/sanchit-gandhi/seq2seq-speech/pull/7
# shown: clip placed first: updates differ from unclipped adamw after the spike (clip fired) (OK)
# style: config dataclass, parts assembled in a list with the clip first
import dataclasses
from typing import Optional

import jax.numpy as jnp
import optax


@dataclasses.dataclass
class TrainingArgs:
    learning_rate: float = 3e-4
    max_grad_norm: Optional[float] = 1.0


def make_optimizer(args):
    txs = []
    if args.max_grad_norm:
        txs.append(optax.clip_by_global_norm(args.max_grad_norm))
    txs.append(optax.adamw(args.learning_rate, weight_decay=0.0))
    return optax.chain(*txs)


def updates_for(tx, gs):
    p = jnp.zeros(2)
    s = tx.init(p)
    out = []
    for g in gs:
        u, s = tx.update(g, s, p)
        out.append(u)
    return jnp.stack(out)


if __name__ == "__main__":
    gs = [jnp.array(v) for v in ([1.0, -1.0], [1000.0, 1000.0], [0.3, -0.4], [0.2, 0.1])]
    diff = float(jnp.abs(updates_for(make_optimizer(TrainingArgs()), gs) - updates_for(optax.adamw(3e-4, weight_decay=0.0), gs)).max())
    print("max |clipped - unclipped| =", diff)
    assert diff > 0
    print("OK")
