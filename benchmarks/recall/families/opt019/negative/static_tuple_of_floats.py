# recall-case: negative
# rule: OPT019
# source: https://github.com/patrick-kidger/equinox/issues/154
# shown: OK three models evaluated under one filter_jit
# style: Equinox, static tuple of Python floats and a bool flag, ensemble loop under filter_jit
import equinox as eqx
import jax
import jax.numpy as jnp


class Mixture(eqx.Module):
    layer: eqx.nn.Linear
    weights: tuple[float, ...] = eqx.field(static=True)
    use_act: bool = eqx.field(static=True)

    def __call__(self, x):
        y = self.layer(x)
        y = sum(w * y[i] for i, w in enumerate(self.weights))
        return jax.nn.relu(y) if self.use_act else y


@eqx.filter_jit
def evaluate(model, x):
    return model(x)


if __name__ == "__main__":
    x = jnp.ones(4)
    models = [Mixture(eqx.nn.Linear(4, 3, key=jax.random.key(i)), (0.2, 0.3, 0.5), True) for i in range(3)]
    outs = [float(evaluate(m, x)) for m in models]
    print("OK three models evaluated under one filter_jit", len(outs))
