# recall-case: positive
# rule: OPT011
# source: https://github.com/patrick-kidger/equinox/issues/107
# shown: use_layernorm on the averaged model: None | output difference 0.230; HAZARD: the LayerNorm branch is silently skipped
# style: config dataclass; helper average_models() (checkpoint averaging) used after training, model with a bool switch
import dataclasses

import jax
import jax.numpy as jnp
import equinox as eqx


@dataclasses.dataclass
class Config:
    width: int = 8
    use_layernorm: bool = True


class Net(eqx.Module):
    lin: eqx.nn.Linear
    norm: eqx.nn.LayerNorm
    head: eqx.nn.Linear
    use_layernorm: bool

    def __init__(self, cfg, key):
        k1, k2 = jax.random.split(key)
        self.lin = eqx.nn.Linear(4, cfg.width, key=k1)
        self.norm = eqx.nn.LayerNorm(cfg.width)
        self.head = eqx.nn.Linear(cfg.width, 1, key=k2)
        self.use_layernorm = cfg.use_layernorm

    def __call__(self, x):
        h = self.lin(x)
        if self.use_layernorm:
            h = self.norm(h)
        return self.head(jnp.tanh(h))


def average_models(models):
    arrays = [eqx.filter(m, eqx.is_array) for m in models]
    return jax.tree_util.tree_map(lambda *xs: sum(xs) / len(xs), *arrays)  # expect


if __name__ == "__main__":
    cfg = Config()
    net = Net(cfg, jax.random.key(0))
    # three "checkpoints" that differ only slightly
    ckpts = [jax.tree_util.tree_map(lambda a: a * (1 + 0.01 * i) if eqx.is_array(a) else a, net) for i in range(3)]
    avg = average_models(ckpts)
    x = 5.0 * jnp.ones(4)
    diff = float(jnp.abs(avg(x) - ckpts[1](x)).max())
    print("use_layernorm on the averaged model:", avg.use_layernorm, f"| output difference {diff:.3f}")
    if avg.use_layernorm is None:
        print("HAZARD: the averaged model lost its non-array fields; the LayerNorm branch is silently skipped")
