# recall-case: negative
# rule: OPT020
# class: broadcast
# source: https://github.com/google-deepmind/dm-haiku/commit/80aeaf908112161f6758082bce7760edac85fd17
# shown: with hk.vmap(split_rng=not hk.running_init()) the examples get different dropout masks; prints OK (checker left off: with typed keys it raises inside hk.vmap's own key handling)
# style: Haiku per-example network vmapped inside the transformed function
import haiku as hk
import jax
import jax.numpy as jnp


def per_example(x):
    h = jax.nn.relu(hk.Linear(16)(x)) + 1.0
    return hk.dropout(hk.next_rng_key(), 0.5, h)


def forward(batch):
    return hk.vmap(per_example, split_rng=(not hk.running_init()))(batch)


if __name__ == "__main__":
    net = hk.transform(forward)
    init_key, apply_key = jax.random.split(jax.random.PRNGKey(0))
    batch = jnp.ones((4, 3))
    params = net.init(init_key, batch)
    masks = net.apply(params, apply_key, batch) != 0
    assert not bool(jnp.all(masks == masks[0]))
    print("OK")
