# recall-case: negative
# rule: OPT022
# source: https://github.com/patrick-kidger/equinox/issues/469
# shown: OK untied projections by default, trained
# style: config dataclass defaulting to untied projections; each field gets its own layer
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class NetConfig:
    dim: int = 6
    lr: float = 3e-3


class Net(eqx.Module):
    in_proj: eqx.nn.Linear
    core: eqx.nn.Linear
    out_proj: eqx.nn.Linear


def build(cfg: NetConfig, key):
    k1, k2, k3 = jax.random.split(key, 3)
    return Net(
        eqx.nn.Linear(cfg.dim, cfg.dim, key=k1),
        eqx.nn.Linear(cfg.dim, cfg.dim, key=k2),
        eqx.nn.Linear(cfg.dim, cfg.dim, key=k3),
    )


if __name__ == "__main__":
    cfg = NetConfig()
    net = build(cfg, jax.random.key(0))
    optim = optax.adam(cfg.lr)
    opt_state = optim.init(eqx.filter(net, eqx.is_array))
    x = jax.random.normal(jax.random.key(1), (8, cfg.dim))
    fwd = lambda n, v: n.out_proj(jnp.tanh(n.core(n.in_proj(v))))
    grads = eqx.filter_grad(lambda n: jnp.mean((jax.vmap(lambda v: fwd(n, v))(x) - 1.0) ** 2))(net)
    updates, opt_state = optim.update(grads, opt_state)
    net = eqx.apply_updates(net, updates)
    print("OK untied projections by default, trained")
