# recall-case: positive
# rule: OPT019
# source: https://github.com/patrick-kidger/equinox/issues/1073
# source: https://github.com/patrick-kidger/equinox/issues/957
# shown: HAZARD: learn_temperature=True but the temperature is still 1.00 after training (grad never reached it)
# style: config dataclass, model built by a helper from the config, temperature array marked static
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class ModelConfig:
    dim: int = 4
    classes: int = 3
    init_temperature: float = 1.0
    learn_temperature: bool = True


class Classifier(eqx.Module):
    proj: eqx.nn.Linear
    temperature: jax.Array = eqx.field(static=True)  # expect

    def __call__(self, x):
        return self.proj(x) / self.temperature


def build_model(cfg: ModelConfig, key):
    return Classifier(eqx.nn.Linear(cfg.dim, cfg.classes, key=key), jnp.asarray(cfg.init_temperature))


def train(model, x, y, steps=60):
    optim = optax.adam(1e-1)
    opt_state = optim.init(eqx.filter(model, eqx.is_inexact_array))

    @eqx.filter_jit
    def step(model, opt_state):
        def loss(m):
            return optax.softmax_cross_entropy_with_integer_labels(jax.vmap(m)(x), y).mean()

        grads = eqx.filter_grad(loss)(model)
        updates, opt_state = optim.update(grads, opt_state)
        return eqx.apply_updates(model, updates), opt_state

    for _ in range(steps):
        model, opt_state = step(model, opt_state)
    return model


if __name__ == "__main__":
    cfg = ModelConfig()
    x = jax.random.normal(jax.random.key(0), (30, cfg.dim)) * 0.01
    y = jnp.arange(30) % cfg.classes
    model = train(build_model(cfg, jax.random.key(1)), x, y)
    t = float(model.temperature)
    print(f"HAZARD: learn_temperature=True but the temperature is still {t:.2f} after training (grad never reached it)"
          if cfg.learn_temperature and t == cfg.init_temperature else "OK")
