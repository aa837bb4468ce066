# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/matthias-wright/flaxmodels/issues/3
# shown: the weight initialisers use the key flax passes them (no `rng` field): different init keys give different generator and discriminator weights; no KeyReuseError under jax_debug_key_reuse; prints OK
# style: StyleGAN-style flax.linen GAN: custom weight initialisers drawing from flax's init key, a mapping network and synthesis layers in the generator, a discriminator, jitted init per network
"""StyleGAN2-like generator and discriminator (initialisation part)."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class LinearLayer(nn.Module):
    in_features: int
    out_features: int
    lr_multiplier: float = 1.0

    @nn.compact
    def __call__(self, x):
        w_shape = (self.in_features, self.out_features)
        w = self.param(
            "weight",
            lambda key, shape: jax.random.normal(key, shape) / self.lr_multiplier,
            w_shape,
        )
        b = self.param("bias", nn.initializers.zeros, (self.out_features,))
        scale = self.lr_multiplier / jnp.sqrt(self.in_features)
        return x @ (w * scale) + b * self.lr_multiplier


class MappingNetwork(nn.Module):
    z_dim: int = 16
    w_dim: int = 16
    num_layers: int = 3

    @nn.compact
    def __call__(self, z):
        x = z / jnp.sqrt(jnp.mean(z**2, axis=1, keepdims=True) + 1e-8)
        for i in range(self.num_layers):
            x = nn.leaky_relu(LinearLayer(x.shape[1], self.w_dim, lr_multiplier=0.01)(x), 0.2)
        return x


class Generator(nn.Module):
    z_dim: int = 16
    w_dim: int = 16
    img_pixels: int = 64

    @nn.compact
    def __call__(self, z):
        w = MappingNetwork(self.z_dim, self.w_dim)(z)
        return jnp.tanh(LinearLayer(self.w_dim, self.img_pixels)(w))


class Discriminator(nn.Module):
    img_pixels: int = 64
    hidden: int = 16

    @nn.compact
    def __call__(self, img):
        h = nn.leaky_relu(LinearLayer(self.img_pixels, self.hidden)(img), 0.2)
        return LinearLayer(self.hidden, 1)(h)


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
    jax.config.update("jax_debug_key_reuse", True)
    params_1 = init_g(jax.random.key(10))
    params_2 = init_g(jax.random.key(58))
    same = jax.tree.all(jax.tree.map(lambda a, b: bool(jnp.array_equal(a, b)), params_1, params_2))
    print("generator params equal across init keys:", same)
    if same:
        raise SystemExit("Generator.init gives the same weights for two keys")

    d_1, d_2 = init_d(jax.random.key(99)), init_d(jax.random.key(7))
    if bool(jnp.array_equal(d_1["LinearLayer_0"]["weight"], d_2["LinearLayer_0"]["weight"])):
        raise SystemExit("Discriminator.init gives the same first-layer weights for two keys")
    print("OK")


if __name__ == "__main__":
    main()
