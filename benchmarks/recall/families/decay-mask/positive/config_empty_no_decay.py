# recall-case: positive
# rule: decay-mask
# source: https://github.com/marin-community/levanter/pull/405
# source: https://github.com/huggingface/transformers/issues/4360
# shown: HAZARD: no_decay=() leaves 6 bias/LayerNorm leaves decayed; LayerNorm scale 1.0 -> 0.905, bias 0.5 -> 0.452
# style: config dataclass with an empty exclusion list as default, mask built from it, parts in a list
import dataclasses

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax import traverse_util


@dataclasses.dataclass
class OptimConfig:
    lr: float = 1e-2
    weight_decay: float = 0.1
    clip: float = 1.0
    no_decay: tuple[str, ...] = ()  # filled in per experiment


class Encoder(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.LayerNorm(name="norm")(x)
        x = nn.relu(nn.Dense(16, name="fc1", bias_init=nn.initializers.constant(0.5))(x))
        return nn.LayerNorm(name="out_norm")(nn.Dense(8, name="fc2")(x))


def build_optimizer(cfg: OptimConfig, params):
    flat = traverse_util.flatten_dict(params)
    mask = traverse_util.unflatten_dict({p: not any(n in p for n in cfg.no_decay) for p in flat})
    txs = []
    if cfg.clip:
        txs.append(optax.clip_by_global_norm(cfg.clip))
    txs.append(optax.adamw(cfg.lr, weight_decay=cfg.weight_decay, mask=mask))  # expect
    return optax.chain(*txs)


if __name__ == "__main__":
    cfg = OptimConfig()
    params = Encoder().init(jax.random.key(0), jnp.ones((2, 8)))
    tx = build_optimizer(cfg, params)
    state = tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(100):
        updates, state = tx.update(zeros, state, params)
        params = optax.apply_updates(params, updates)
    flat = traverse_util.flatten_dict(params)
    excluded_kinds = [p for p in flat if p[-1] in ("bias", "scale")]
    scale = float(params["params"]["norm"]["scale"][0])
    bias = float(params["params"]["fc1"]["bias"][0])
    print(f"HAZARD: no_decay=() leaves {len(excluded_kinds)} bias/LayerNorm leaves decayed; "
          f"LayerNorm scale 1.0 -> {scale:.3f}, bias 0.5 -> {bias:.3f}" if scale < 1.0 else "OK")
