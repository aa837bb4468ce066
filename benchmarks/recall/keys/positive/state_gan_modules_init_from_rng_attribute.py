# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/matthias-wright/flaxmodels/issues/3
# shown: Generator.init with PRNGKey(10) and with PRNGKey(58) give identical parameters (and the discriminator likewise): the layers draw their weights from the modules' `rng` attribute (default PRNGKey(0)) instead of the key given to init
# style: StyleGAN-style flax.linen GAN: modules with an `rng` field used by custom weight initialisers, a mapping network and synthesis layers in the generator, a discriminator, jitted init per network
"""StyleGAN2-like generator and discriminator (initialisation part)."""
import dataclasses
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp


class LinearLayer(nn.Module):
    in_features: int
    out_features: int
    lr_multiplier: float = 1.0
    rng: Any = dataclasses.field(default_factory=lambda: jax.random.PRNGKey(0))

    @nn.compact
    def __call__(self, x):
        w_shape = (self.in_features, self.out_features)
        w = self.param(
            "weight",
            lambda _key, shape: jax.random.normal(self.rng, shape) / self.lr_multiplier,  # expect
            w_shape,
        )
        b = self.param("bias", nn.initializers.zeros, (self.out_features,))
        scale = self.lr_multiplier / jnp.sqrt(self.in_features)
        return x @ (w * scale) + b * self.lr_multiplier


class MappingNetwork(nn.Module):
    z_dim: int = 16
    w_dim: int = 16
    num_layers: int = 3
    rng: Any = dataclasses.field(default_factory=lambda: jax.random.PRNGKey(0))

    @nn.compact
    def __call__(self, z):
        x = z / jnp.sqrt(jnp.mean(z**2, axis=1, keepdims=True) + 1e-8)
        rng = self.rng
        for i in range(self.num_layers):
            rng, layer_rng = jax.random.split(rng)
            x = nn.leaky_relu(LinearLayer(x.shape[1], self.w_dim, lr_multiplier=0.01, rng=layer_rng)(x), 0.2)
        return x


class Generator(nn.Module):
    z_dim: int = 16
    w_dim: int = 16
    img_pixels: int = 64
    rng: Any = dataclasses.field(default_factory=lambda: jax.random.PRNGKey(0))

    @nn.compact
    def __call__(self, z):
        rng, map_rng, synth_rng = jax.random.split(self.rng, 3)
        w = MappingNetwork(self.z_dim, self.w_dim, rng=map_rng)(z)
        return jnp.tanh(LinearLayer(self.w_dim, self.img_pixels, rng=synth_rng)(w))


class Discriminator(nn.Module):
    img_pixels: int = 64
    hidden: int = 16
    rng: Any = dataclasses.field(default_factory=lambda: jax.random.PRNGKey(0))

    @nn.compact
    def __call__(self, img):
        rng, feat_rng, out_rng = jax.random.split(self.rng, 3)
        h = nn.leaky_relu(LinearLayer(self.img_pixels, self.hidden, rng=feat_rng)(img), 0.2)
        return LinearLayer(self.hidden, 1, rng=out_rng)(h)


def init_g(g_rng):
    G_model = Generator()

    @jax.jit
    def _init(*args):
        return G_model.init(*args)

    return _init({"params": g_rng}, jnp.ones((4, 16)))["params"]


def init_d(d_rng):
    D_model = Discriminator()
    return jax.jit(D_model.init)({"params": d_rng}, jnp.ones((4, 64)))["params"]


def main() -> None:
    params_1 = init_g(jax.random.PRNGKey(10))
    params_2 = init_g(jax.random.PRNGKey(58))
    same = jax.tree.all(jax.tree.map(lambda a, b: bool(jnp.array_equal(a, b)), params_1, params_2))
    print("generator params equal across init keys:", same)
    if same:
        print("HAZARD: Generator.init gives the same weights for PRNGKey(10) and PRNGKey(58)")

    d_1, d_2 = init_d(jax.random.PRNGKey(99)), init_d(jax.random.PRNGKey(7))
    if bool(jnp.array_equal(d_1["LinearLayer_0"]["weight"], d_2["LinearLayer_0"]["weight"])):
        print("HAZARD: Discriminator.init gives the same first-layer weights for PRNGKey(99) and PRNGKey(7)")


if __name__ == "__main__":
    main()
