# recall-case: positive
# rule: grad-accumulation
# source: https://github.com/borisdayma/dalle-mini/pull/122
# source: https://github.com/google-deepmind/optax/pull/596
# shown: HAZARD: weights changed on 6 of 6 micro-steps between boundaries (MultiSteps: 0 of 6)
# style: script, apply_every placed before adamw, python loop over micro-batches
import jax
import jax.numpy as jnp
import optax

ACCUM = 4
tx = optax.chain(optax.apply_every(ACCUM), optax.adamw(1e-2, weight_decay=0.1))  # expect


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def run(tx, w, batches):
    state = tx.init(w)
    moved = []
    for i, (x, y) in enumerate(batches):
        g = jax.grad(loss_fn)(w, x, y)
        updates, state = tx.update(g, state, w)
        new_w = optax.apply_updates(w, updates)
        moved.append(bool(jnp.any(new_w != w)))
        w = new_w
    return w, moved


key = jax.random.key(0)
xs = jax.random.normal(key, (8, 16, 3))
ys = xs @ jnp.array([1.0, -2.0, 0.5])
batches = list(zip(xs, ys))
w0 = jnp.ones(3)
w, moved = run(tx, w0, batches)

if __name__ == "__main__":
    # micro-steps 0..7; the accumulated step is due only at 3 and 7
    between = [i for i in range(len(batches)) if (i + 1) % ACCUM]
    n_bad = sum(moved[i] for i in between)
    _, ref = run(optax.MultiSteps(optax.adamw(1e-2, weight_decay=0.1), ACCUM), w0, batches)
    n_ref = sum(ref[i] for i in between)
    print(f"HAZARD: weights changed on {n_bad} of {len(between)} micro-steps between boundaries (MultiSteps: {n_ref} of {len(between)})"
          if n_bad > n_ref else "OK")
