# recall-case: positive
# rule: OPT003
# source: https://github.com/google-deepmind/optax/issues/1017
# source: https://github.com/patrick-kidger/equinox/issues/796
# shown: HAZARD: ValueError pytree structure error ... (the int field got optimizer state, its gradient is None)
# style: custom module with plain int fields (hidden_size, latent_size) and no function leaves, adam.init(model)
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Encoder(eqx.Module):
    cell: eqx.nn.GRUCell
    to_latent: eqx.nn.Linear
    hidden_size: int
    latent_size: int

    def __init__(self, data_size, hidden_size, latent_size, *, key):
        k1, k2 = jax.random.split(key)
        self.cell = eqx.nn.GRUCell(data_size, hidden_size, key=k1)
        self.to_latent = eqx.nn.Linear(hidden_size, latent_size, key=k2)
        self.hidden_size = hidden_size
        self.latent_size = latent_size

    def __call__(self, ys):
        def body(h, y):
            return self.cell(y, h), None

        h, _ = jax.lax.scan(body, jnp.zeros(self.hidden_size), ys)
        return self.to_latent(h)


def make_step(optim):
    @eqx.filter_jit
    def step(model, opt_state, ys):
        loss, grads = eqx.filter_value_and_grad(lambda m: jnp.sum(m(ys) ** 2))(model)
        updates, opt_state = optim.update(grads, opt_state)
        return eqx.apply_updates(model, updates), opt_state, loss

    return step


if __name__ == "__main__":
    model = Encoder(2, 6, 3, key=jax.random.key(0))
    optim = optax.adam(1e-3)
    opt_state = optim.init(model)  # expect
    step = make_step(optim)
    try:
        model, opt_state, loss = step(model, opt_state, jnp.ones((5, 2)))
    except ValueError as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:160])
        raise SystemExit(1)
    print("loss", loss)
