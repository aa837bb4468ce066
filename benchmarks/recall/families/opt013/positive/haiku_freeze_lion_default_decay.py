# recall-case: positive
# rule: OPT013
# source: https://github.com/google-deepmind/optax/issues/296
# source: https://github.com/google-deepmind/optax/issues/290
# shown: HAZARD: frozen pretrained encoder moved (max |delta| 1.91e-04) under freeze + lion's default weight decay
# style: Haiku, pretrained encoder frozen with a mask over Haiku module names, lion with its default weight_decay
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    h = jax.nn.relu(hk.Linear(8, name="encoder")(x))
    return hk.Linear(2, name="head")(h)


net = hk.without_apply_rng(hk.transform(forward))


def make_finetune_optimizer(params, lr=1e-3):
    frozen = {module: {name: module == "encoder" for name in leaves} for module, leaves in params.items()}
    return optax.chain(optax.freeze(frozen), optax.lion(lr))  # expect


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (16, 4))
    y = jnp.arange(16) % 2
    params = net.init(jax.random.key(1), x)
    pretrained = params["encoder"]["w"]
    tx = make_finetune_optimizer(params)
    state = tx.init(params)

    @jax.jit
    def step(params, state):
        grads = jax.grad(lambda p: optax.softmax_cross_entropy_with_integer_labels(net.apply(p, x), y).mean())(params)
        updates, state = tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state

    for _ in range(200):
        params, state = step(params, state)
    delta = float(jnp.abs(params["encoder"]["w"] - pretrained).max())
    print(f"HAZARD: frozen pretrained encoder moved (max |delta| {delta:.2e}) under freeze + lion's default weight decay"
          if delta else "OK")
