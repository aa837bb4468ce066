# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/jax-ml/jax/issues/7708
# shown: every token row gets the same dropout mask: the per-token function closes over one key
# style: vmapped per-token loss with token dropout, averaged over the sequence
import sys

import jax
import jax.numpy as jnp


def token_loss_fn(params, key, rate=0.5):
    def token_loss(token_embedding):
        keep = jax.random.bernoulli(key, 1.0 - rate, token_embedding.shape)  # expect
        h = jnp.where(keep, token_embedding / (1.0 - rate), 0.0)
        return jnp.sum((h @ params) ** 2), keep

    return token_loss


def average_loss(params, key, tokens):
    losses, masks = jax.vmap(token_loss_fn(params, key))(tokens)  # expect
    return jnp.mean(losses), masks


if __name__ == "__main__":
    params = jnp.ones((8, 2))
    tokens = jnp.ones((5, 8))
    loss, masks = average_loss(params, jax.random.key(0), tokens)
    if bool(jnp.all(masks == masks[0])):
        print("HAZARD: all 5 tokens share one dropout mask")
        sys.exit(1)
    print("masks differ")
