# recall-case: positive
# rule: grad-accumulation
# source: https://github.com/jenkspt/gpt-jax/issues/2
# source: https://github.com/google-deepmind/optax/pull/596
# shown: HAZARD: grad_accum_steps=8 from the config default: one optimizer step moves the weights 4.7x as far as MultiSteps
# style: config dataclass default reaching the factory, parts appended to a list, chain(*txs), jitted step
import dataclasses

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class TrainConfig:
    learning_rate: float = 3e-4
    weight_decay: float = 0.1
    max_grad_norm: float = 1.0
    grad_accum_steps: int = 8


def build_tx(cfg: TrainConfig):
    txs = []
    if cfg.max_grad_norm:
        txs.append(optax.clip_by_global_norm(cfg.max_grad_norm))
    txs.append(optax.adamw(cfg.learning_rate, b1=0.9, b2=0.95, weight_decay=cfg.weight_decay))
    if cfg.grad_accum_steps > 1:
        txs.append(optax.apply_every(cfg.grad_accum_steps))
    return optax.chain(*txs)  # expect


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def train(tx, params, xs, ys):
    state = tx.init(params)

    @jax.jit
    def step(params, state, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        updates, state = tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state

    for x, y in zip(xs, ys):
        params, state = step(params, state, x, y)
    return params


if __name__ == "__main__":
    cfg = TrainConfig()
    xs = jax.random.normal(jax.random.key(0), (cfg.grad_accum_steps, 4, 5))
    ys = xs.sum(-1, keepdims=True)
    p0 = {"w": jnp.zeros((5, 1)), "b": jnp.zeros(1)}
    ours = train(build_tx(cfg), p0, xs, ys)
    ref_tx = optax.MultiSteps(
        optax.chain(optax.clip_by_global_norm(cfg.max_grad_norm),
                    optax.adamw(cfg.learning_rate, b1=0.9, b2=0.95, weight_decay=cfg.weight_decay)),
        cfg.grad_accum_steps,
    )
    ref = train(ref_tx, p0, xs, ys)
    r = float(jnp.linalg.norm(ours["w"]) / jnp.linalg.norm(ref["w"]))
    print(f"HAZARD: grad_accum_steps={cfg.grad_accum_steps} from the config default: one optimizer step moves the weights "
          f"{r:.1f}x as far as MultiSteps" if abs(r - 1) > 0.1 else "OK")
