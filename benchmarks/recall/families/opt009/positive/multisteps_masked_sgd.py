# recall-case: positive
# rule: OPT009
# source: https://github.com/google-deepmind/optax/issues/159
# shown: embedding changed by 68.6 after 4 micro-batches (mask False, meant frozen); HAZARD
# style: masked optimizer wrapped in MultiSteps for accumulation, plain dict params, jitted update
import jax
import jax.numpy as jnp
import optax

params = {"embedding": jnp.ones((4, 2)), "dense": {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}}
mask = {"embedding": False, "dense": {"w": True, "b": True}}
tx = optax.MultiSteps(optax.masked(optax.sgd(1e-2, momentum=0.9), mask), every_k_schedule=2)  # expect


def loss(p, ids):
    h = p["embedding"][ids] @ p["dense"]["w"] + p["dense"]["b"]
    return jnp.sum(h ** 2)


@jax.jit
def micro_step(p, s, ids):
    g = jax.grad(loss)(p, ids)
    u, s = tx.update(g, s, p)
    return optax.apply_updates(p, u), s


if __name__ == "__main__":
    s = tx.init(params)
    p = params
    for _ in range(4):
        p, s = micro_step(p, s, jnp.array([0, 1]))
    moved = float(jnp.abs(p["embedding"] - params["embedding"]).max())
    print("embedding changed by", moved)
    if moved > 0:
        print("HAZARD: the masked-out embedding is not frozen: the accumulated raw gradient is added")
