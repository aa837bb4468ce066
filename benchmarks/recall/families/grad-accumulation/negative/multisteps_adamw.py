# recall-case: negative
# rule: grad-accumulation
# source: https://github.com/google-deepmind/optax/issues/320
# shown: OK weights moved only at the 2 boundaries; equal to the full-batch adamw step
# style: script, optax.MultiSteps around adamw
import jax
import jax.numpy as jnp
import optax

ACCUM = 4
tx = optax.MultiSteps(optax.adamw(1e-2, weight_decay=0.1), every_k_schedule=ACCUM)


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


xs = jax.random.normal(jax.random.key(0), (8, 16, 3))
ys = xs @ jnp.array([1.0, -2.0, 0.5])
w = jnp.ones(3)
state = tx.init(w)
moves = 0
for x, y in zip(xs, ys):
    updates, state = tx.update(jax.grad(loss_fn)(w, x, y), state, w)
    new_w = optax.apply_updates(w, updates)
    moves += bool(jnp.any(new_w != w))
    w = new_w

if __name__ == "__main__":
    big = optax.adamw(1e-2, weight_decay=0.1)
    wb = jnp.ones(3)
    sb = big.init(wb)
    for k in range(2):
        xb = xs[4 * k:4 * k + 4].reshape(-1, 3)
        yb = ys[4 * k:4 * k + 4].reshape(-1)
        u, sb = big.update(jax.grad(loss_fn)(wb, xb, yb), sb, wb)
        wb = optax.apply_updates(wb, u)
    assert moves == 2 and jnp.allclose(w, wb, atol=1e-5)
    print(f"OK weights moved only at the {moves} boundaries; equal to the full-batch adamw step")
