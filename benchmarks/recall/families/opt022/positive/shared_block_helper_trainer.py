# recall-case: positive
# rule: OPT022
# source: https://github.com/patrick-kidger/equinox/issues/469
# shown: HAZARD: encoder/decoder projections were one layer, now differ by 0.0601
# style: trainer class, model assembled by a helper that hands the same layer to two fields
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class AutoEncoder(eqx.Module):
    encoder_proj: eqx.nn.Linear
    decoder_proj: eqx.nn.Linear

    def __call__(self, x):
        z = jax.nn.relu(self.encoder_proj(x))
        return self.decoder_proj(z)


def build_autoencoder(dim, key, share_projection=True):
    proj = eqx.nn.Linear(dim, dim, key=key)
    other = proj if share_projection else eqx.nn.Linear(dim, dim, key=jax.random.fold_in(key, 1))
    return AutoEncoder(encoder_proj=proj, decoder_proj=other)  # expect


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optim = optax.adamw(lr)
        self.opt_state = self.optim.init(eqx.filter(model, eqx.is_array))

    def step(self, x):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - x) ** 2))(self.model)
        params = eqx.filter(self.model, eqx.is_array)
        updates, self.opt_state = self.optim.update(grads, self.opt_state, params)
        self.model = eqx.apply_updates(self.model, updates)


if __name__ == "__main__":
    trainer = Trainer(build_autoencoder(5, jax.random.key(0)))
    x = jax.random.normal(jax.random.key(1), (16, 5))
    for _ in range(3):
        trainer.step(x)
    m = trainer.model
    gap = float(jnp.abs(m.encoder_proj.weight - m.decoder_proj.weight).max())
    print(f"HAZARD: encoder/decoder projections were one layer, now differ by {gap:.4f}" if gap else "OK")
