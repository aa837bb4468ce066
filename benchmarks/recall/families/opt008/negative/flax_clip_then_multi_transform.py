# recall-case: negative
# rule: OPT008
# source: https://github.com/google-deepmind/optax/issues/364
# shown: clip before multi_transform: the spike is clipped (updates differ from the unclipped optimizer) (OK)
# style: Flax-style param dict, per-group adamw via multi_transform, clipping first in the chain, factory
import jax.numpy as jnp
import optax


def label(params):
    return {k: "deep" if k.startswith("block") else "shallow" for k in params}


def make_tx(clip=True):
    groups = optax.multi_transform({"deep": optax.adamw(1e-3), "shallow": optax.adamw(1e-2)}, label)
    return optax.chain(optax.clip_by_global_norm(1.0), groups) if clip else groups


def run(tx):
    params = {"block1": jnp.zeros(3), "embed": jnp.zeros(3)}
    state = tx.init(params)
    outs = []
    for v in (0.5, 577.0, 0.1, 0.2):
        u, state = tx.update({"block1": jnp.full(3, v), "embed": jnp.full(3, -v)}, state, params)
        outs.append(jnp.concatenate([u["block1"], u["embed"]]))
    return jnp.stack(outs)


if __name__ == "__main__":
    diff = float(jnp.abs(run(make_tx()) - run(make_tx(False))).max())
    print("max |clipped - unclipped| =", diff)
    assert diff > 0
    print("OK")
