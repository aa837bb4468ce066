# recall-case: positive
# rule: OPT021
# source: https://github.com/patrick-kidger/equinox/issues/502
# shown: TypeError: Functions wrapped with `equinox.filter_{grad, value_and_grad}` must have their first argument passed by position ...
# style: filter_value_and_grad(has_aux=True) inside a lax.scan over minibatches, partition/combine
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def loss_with_metrics(model, batch):
    x, y = batch
    logits = jax.vmap(model)(x)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    acc = jnp.mean(jnp.argmax(logits, -1) == y)
    return loss, {"acc": acc}


loss_and_grad = eqx.filter_value_and_grad(loss_with_metrics, has_aux=True)
optim = optax.adam(1e-2)


def epoch(model, opt_state, xs, ys):
    params, static = eqx.partition(model, eqx.is_array)

    def body(carry, batch):
        params, opt_state = carry
        model = eqx.combine(params, static)
        (loss, metrics), grads = loss_and_grad(model=model, batch=batch)  # expect
        updates, opt_state = optim.update(grads, opt_state)
        return (eqx.apply_updates(params, updates), opt_state), loss

    (params, opt_state), losses = jax.lax.scan(body, (params, opt_state), (xs, ys))
    return eqx.combine(params, static), opt_state, losses


if __name__ == "__main__":
    model = eqx.nn.MLP(4, 3, 8, 1, key=jax.random.key(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    xs = jnp.ones((5, 8, 4))
    ys = jnp.zeros((5, 8), jnp.int32)
    model, opt_state, losses = epoch(model, opt_state, xs, ys)
    print("HAZARD: no error (not expected)")
