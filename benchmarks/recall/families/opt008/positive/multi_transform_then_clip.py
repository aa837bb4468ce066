# recall-case: positive
# rule: OPT008
# source: https://github.com/sanchit-gandhi/seq2seq-speech/pull/7
# source: https://github.com/google-deepmind/optax/issues/364
# shown: HAZARD: updates identical to the unclipped optimizer (max diff 0.0) though the gradient norm reached 1414
# style: per-group learning rates with multi_transform and a label function, clipping appended afterwards in a factory
import jax
import jax.numpy as jnp
import optax


def depth_label(params):
    return {name: ("deep" if name.startswith("block") else "shallow") for name in params}


def make_tx(lrs, weight_decay=1e-4, clip=True):
    tx = optax.multi_transform({d: optax.adamw(lr, weight_decay=weight_decay) for d, lr in lrs.items()}, depth_label)
    if clip:
        tx = optax.chain(tx, optax.clip_by_global_norm(1.0))  # expect
    return tx


def run(tx, grads_seq):
    params = {"block1": jnp.zeros(3), "embed": jnp.zeros(3)}
    state = tx.init(params)
    outs = []
    for g in grads_seq:
        u, state = tx.update(g, state, params)
        outs.append(jnp.concatenate([u["block1"], u["embed"]]))
    return jnp.stack(outs)


if __name__ == "__main__":
    lrs = {"deep": 1e-3, "shallow": 1e-2}
    gs = [{"block1": jnp.full(3, v), "embed": jnp.full(3, -v)} for v in (0.5, 577.0, 0.1, 0.2)]
    diff = float(jnp.abs(run(make_tx(lrs), gs) - run(make_tx(lrs, clip=False), gs)).max())
    print("max |clipped - unclipped| =", diff)
    if diff == 0.0:
        print("HAZARD: clip_by_global_norm after the optimizer never fired")
