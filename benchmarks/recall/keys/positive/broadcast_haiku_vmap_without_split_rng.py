# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/google-deepmind/dm-haiku/commit/80aeaf908112161f6758082bce7760edac85fd17
# shown: every example in the batch gets the same dropout mask (hk.vmap with split_rng=False)
# style: Haiku per-example network vmapped inside the transformed function
import sys

import haiku as hk
import jax
import jax.numpy as jnp


def per_example(x):
    h = jax.nn.relu(hk.Linear(16)(x))
    return hk.dropout(hk.next_rng_key(), 0.5, h)


def forward(batch):
    return hk.vmap(per_example, split_rng=False)(batch)  # expect


if __name__ == "__main__":
    net = hk.transform(forward)
    init_key, apply_key = jax.random.split(jax.random.PRNGKey(0))
    batch = jnp.ones((4, 3))
    params = net.init(init_key, batch)
    out = net.apply(params, apply_key, batch)
    masks = out != 0
    if bool(jnp.all(masks == masks[0])):
        print("HAZARD: all 4 examples share one dropout mask")
        sys.exit(1)
    print("masks differ")
