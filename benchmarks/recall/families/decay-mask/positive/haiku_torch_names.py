# recall-case: positive
# rule: decay-mask
# source: https://github.com/huggingface/transformers/issues/11936
# source: https://github.com/huggingface/transformers/issues/42754
# shown: HAZARD: haiku names are 'b'/'offset'/'scale' under 'layer_norm': 0 of 4 meant-to-skip leaves excluded; LN scale -> 0.905
# style: Haiku transformed model, PyTorch-style exclusion names ("bias", "LayerNorm.weight") matched on '/'-joined paths
import haiku as hk
import jax
import jax.numpy as jnp
import optax

NO_DECAY = ["bias", "LayerNorm.weight"]


def forward(x):
    x = hk.LayerNorm(axis=-1, create_scale=True, create_offset=True)(x)
    x = jax.nn.gelu(hk.Linear(16)(x))
    return hk.Linear(4)(x)


net = hk.without_apply_rng(hk.transform(forward))


def weight_decay_mask(params):
    return {
        module: {name: not any(nd in f"{module}/{name}" for nd in NO_DECAY) for name in leaves}
        for module, leaves in params.items()
    }


def make_optimizer(params, lr=1e-2, wd=0.1):
    return optax.adamw(lr, weight_decay=wd, mask=weight_decay_mask(params))  # expect


if __name__ == "__main__":
    params = net.init(jax.random.key(0), jnp.ones((2, 8)))
    tx = make_optimizer(params)
    state = tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    update = jax.jit(tx.update)
    for _ in range(100):
        updates, state = update(zeros, state, params)
        params = optax.apply_updates(params, updates)
    mask = weight_decay_mask(params)
    skip_kinds = [(m, n) for m, leaves in mask.items() for n in leaves if n in ("b", "offset", "scale")]
    excluded = [k for k in skip_kinds if not mask[k[0]][k[1]]]
    scale = float(params["layer_norm"]["scale"][0])
    print(f"HAZARD: haiku names are 'b'/'offset'/'scale' under 'layer_norm': {len(excluded)} of {len(skip_kinds)} "
          f"meant-to-skip leaves excluded; LN scale -> {scale:.3f}" if scale < 1.0 else "OK")
