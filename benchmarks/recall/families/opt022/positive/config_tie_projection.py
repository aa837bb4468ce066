# recall-case: positive
# rule: OPT022
# source: https://github.com/patrick-kidger/equinox/issues/469
# shown: HAZARD: tie_io_projection=True, but after 2 steps the projections differ by 0.0120
# style: config dataclass whose default turns tying on, model built from the config, filter_jit step
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class NetConfig:
    dim: int = 6
    tie_io_projection: bool = True
    lr: float = 3e-3


class Net(eqx.Module):
    in_proj: eqx.nn.Linear
    core: eqx.nn.Linear
    out_proj: eqx.nn.Linear


def build(cfg: NetConfig, key):
    k1, k2, k3 = jax.random.split(key, 3)
    in_proj = eqx.nn.Linear(cfg.dim, cfg.dim, key=k1)
    out_proj = in_proj if cfg.tie_io_projection else eqx.nn.Linear(cfg.dim, cfg.dim, key=k3)
    return Net(in_proj, eqx.nn.Linear(cfg.dim, cfg.dim, key=k2), out_proj)  # expect


def forward(net, x):
    return net.out_proj(jnp.tanh(net.core(net.in_proj(x))))


if __name__ == "__main__":
    cfg = NetConfig()
    net = build(cfg, jax.random.key(0))
    optim = optax.adam(cfg.lr)
    opt_state = optim.init(eqx.filter(net, eqx.is_array))
    x = jax.random.normal(jax.random.key(1), (8, cfg.dim))

    @eqx.filter_jit
    def step(net, opt_state):
        grads = eqx.filter_grad(lambda n: jnp.mean((jax.vmap(lambda v: forward(n, v))(x) - 1.0) ** 2))(net)
        updates, opt_state = optim.update(grads, opt_state)
        return eqx.apply_updates(net, updates), opt_state

    for _ in range(2):
        net, opt_state = step(net, opt_state)
    gap = float(jnp.abs(net.in_proj.weight - net.out_proj.weight).max())
    print(f"HAZARD: tie_io_projection=True, but after 2 steps the projections differ by {gap:.4f}" if gap else "OK")
