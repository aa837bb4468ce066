# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/google-deepmind/dm-haiku/commit/7f78e969e7b5caf1bfdd8c8345261dc56b4553a2
# shown: runs with jax_debug_key_reuse on; apply() receives the key that init() used, but the networks call hk.next_rng_key() only while creating parameters, so apply draws nothing (its output is the same for any key); prints OK
# style: GAN-style trainer class holding two hk.transform'ed networks (no dropout, no sampling inside the networks)
import haiku as hk
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class Generator(hk.Module):
    def __call__(self, z):
        return jnp.tanh(hk.nets.MLP([32, 16])(z))


class Discriminator(hk.Module):
    def __call__(self, x):
        return hk.nets.MLP([32, 1])(x)


class GAN:
    def __init__(self):
        self.gen_transform = hk.transform(lambda z: Generator()(z))
        self.disc_transform = hk.transform(lambda x: Discriminator()(x))

    def init(self, rng, z):
        gen_rng, disc_rng = jax.random.split(rng)
        gen_params = self.gen_transform.init(gen_rng, z)
        fake = self.gen_transform.apply(gen_params, gen_rng, z)
        disc_params = self.disc_transform.init(disc_rng, fake)
        return gen_params, disc_params, disc_rng

    def score(self, gen_params, disc_params, rng, z):
        fake = self.gen_transform.apply(gen_params, rng, z)
        return self.disc_transform.apply(disc_params, rng, fake)


if __name__ == "__main__":
    gan = GAN()
    z = jnp.linspace(-1.0, 1.0, 8).reshape(2, 4)
    gen_params, disc_params, disc_rng = gan.init(jax.random.key(0), z)
    s1 = gan.score(gen_params, disc_params, disc_rng, z)
    s2 = gan.score(gen_params, disc_params, jax.random.key(99), z)
    assert bool(jnp.all(s1 == s2))  # the rng argument is never drawn from in apply
    print("OK")
