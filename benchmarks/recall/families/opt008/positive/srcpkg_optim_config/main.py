# recall-case: positive
# rule: OPT008
# source: https://github.com/sanchit-gandhi/seq2seq-speech/pull/7
# shown: step norm after a spike: ours 1.000, clip first 0.0190; drift over 3 later zero-gradient steps: 3.000; HAZARD: the clip bounds the update, the momentum buffer keeps the unclipped spike
# style: src-layout package: dataclass config (momentum, max_grad_norm defaults) in clipkit/config.py, factory in clipkit/factory.py appends the clip after sgd
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import jax.numpy as jnp
import optax

from clipkit.config import OptimConfig
from clipkit.factory import make_tx


def run(tx, grads):
    p = jnp.zeros(4)
    s = tx.init(p)
    for g in grads:
        u, s = tx.update(g, s, p)
        p = optax.apply_updates(p, u)
    return p


if __name__ == "__main__":
    cfg = OptimConfig()
    tx = make_tx(cfg)  # expect
    spike = [jnp.full(4, 100.0)]
    ours = run(tx, spike)
    clip_first = run(optax.chain(optax.clip_by_global_norm(cfg.max_grad_norm), optax.sgd(cfg.lr, cfg.momentum, nesterov=True)), spike)
    print(f"step norm after a spike: ours {float(jnp.linalg.norm(ours)):.3f}, clip first {float(jnp.linalg.norm(clip_first)):.4f}")
    later = run(tx, spike + [jnp.zeros(4)] * 3)
    print(f"drift over 3 later zero-gradient steps: {float(jnp.linalg.norm(later - ours)):.3f}")
    if float(jnp.linalg.norm(ours)) > 10 * float(jnp.linalg.norm(clip_first)):
        print("HAZARD: the clip after sgd bounds the update, the momentum buffer keeps the unclipped spike")
