# recall-case: negative
# rule: decay-mask
# source: https://github.com/huggingface/transformers/issues/11936
# shown: OK LayerNorm scale 1.000 and offsets untouched; weights decayed
# style: Haiku, mask on Haiku's own names ('w' decays; 'b', 'offset', 'scale' do not)
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    x = hk.LayerNorm(axis=-1, create_scale=True, create_offset=True)(x)
    return hk.Linear(4)(jax.nn.gelu(hk.Linear(16)(x)))


net = hk.without_apply_rng(hk.transform(forward))


def weight_decay_mask(params):
    return {m: {n: n == "w" for n in leaves} for m, leaves in params.items()}


if __name__ == "__main__":
    params = net.init(jax.random.key(0), jnp.ones((2, 8)))
    tx = optax.adamw(1e-2, weight_decay=0.1, mask=weight_decay_mask)
    state = tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(100):
        updates, state = tx.update(zeros, state, params)
        params = optax.apply_updates(params, updates)
    scale = float(params["layer_norm"]["scale"][0])
    assert scale == 1.0
    print(f"OK LayerNorm scale {scale:.3f} and offsets untouched; weights decayed")
