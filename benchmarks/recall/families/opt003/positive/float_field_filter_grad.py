# recall-case: positive
# rule: OPT003
# source: https://github.com/patrick-kidger/equinox/issues/681
# source: https://github.com/patrick-kidger/equinox/issues/364
# shown: HAZARD: ValueError pytree structure error: different types at key path (the float `temperature` got Adam state; eqx.filter_grad gives it a None gradient)
# style: module whose only non-array leaf is a plain Python float; adam.init(model) unfiltered, gradients from eqx.filter_value_and_grad in a filter_jit step
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Contrastive(eqx.Module):
    proj: eqx.nn.Linear
    temperature: float

    def __init__(self, key, temperature=0.07):
        self.proj = eqx.nn.Linear(8, 4, key=key)
        self.temperature = temperature

    def __call__(self, a, b):
        za, zb = self.proj(a), self.proj(b)
        return jnp.dot(za, zb) / self.temperature


@eqx.filter_jit
def step(model, opt_state, a, b, optim):
    loss, grads = eqx.filter_value_and_grad(lambda m: -jax.nn.log_sigmoid(m(a, b)))(model)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


if __name__ == "__main__":
    model = Contrastive(jax.random.key(0))
    optim = optax.adam(1e-3)
    opt_state = optim.init(model)  # expect
    try:
        model, opt_state, loss = step(model, opt_state, jnp.ones(8), jnp.ones(8), optim)
    except ValueError as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0])
        raise SystemExit(1)
    print("loss", loss)
