# recall-case: positive
# rule: OPT006
# source: https://github.com/patrick-kidger/equinox/issues/149
# shown: HAZARD: TypeError Error interpreting argument to <function forward ...> as an abstract array ... at path model.pool.operation
# style: module holding eqx.nn.MaxPool2d, @jax.jit forward over a batch with vmap
import jax
import jax.numpy as jnp
import equinox as eqx


class Net(eqx.Module):
    conv: eqx.nn.Conv2d
    pool: eqx.nn.MaxPool2d

    def __init__(self, key):
        self.conv = eqx.nn.Conv2d(3, 4, 3, key=key)
        self.pool = eqx.nn.MaxPool2d(kernel_size=3, stride=2)

    def __call__(self, x):
        return self.pool(self.conv(x))


@jax.jit
def forward(model, x):
    return jax.vmap(model)(x)


if __name__ == "__main__":
    model = Net(jax.random.key(0))
    images = jax.random.uniform(jax.random.key(1), (2, 3, 16, 16))
    try:
        out = forward(model, images)  # expect
    except TypeError as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:200])
        raise SystemExit(1)
    print(out.shape)
