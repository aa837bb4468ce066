# recall-case: positive
# rule: OPT008
# source: https://github.com/sanchit-gandhi/seq2seq-speech/pull/7
# shown: HAZARD: with max_grad_norm=1.0 the updates equal plain adamw's (max diff 0.0) on gradients of norm ~1400
# style: config dataclass with class defaults, parts assembled in a list: txs = [adamw]; if cfg.max_grad_norm: txs.append(clip); chain(*txs)
import dataclasses
from typing import Optional

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class TrainingArgs:
    learning_rate: float = 3e-4
    weight_decay: float = 0.0
    max_grad_norm: Optional[float] = 1.0


def make_optimizer(args: TrainingArgs):
    txs = [optax.adamw(args.learning_rate, weight_decay=args.weight_decay)]
    if args.max_grad_norm:
        txs.append(optax.clip_by_global_norm(args.max_grad_norm))
    return optax.chain(*txs)  # expect


def updates_for(tx, grads_seq, params):
    state = tx.init(params)
    out = []
    for g in grads_seq:
        u, state = tx.update(g, state, params)
        out.append(u["w"])
    return jnp.stack(out)


if __name__ == "__main__":
    params = {"w": jnp.zeros(2)}
    grads_seq = [{"w": jnp.array(v)} for v in ([1.0, -1.0], [1000.0, 1000.0], [0.3, -0.4], [0.2, 0.1])]
    ours = updates_for(make_optimizer(TrainingArgs()), grads_seq, params)
    plain = updates_for(optax.adamw(3e-4, weight_decay=0.0), grads_seq, params)
    diff = float(jnp.abs(ours - plain).max())
    print("max |ours - adamw without clipping| =", diff)
    if diff == 0.0:
        print("HAZARD: the clip sits after adamw and never touches the gradients")
