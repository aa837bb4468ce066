# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/google-deepmind/dm-haiku/commit/96ecde6adecd8ac41827fe90a4129cf8e6108d61
# shown: KeyReuseError under jax_debug_key_reuse: the rng given to transform.init is given to apply as well
# style: Haiku model summary helper: init then one logged apply
import sys

import haiku as hk
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def forward(x, is_training=True):
    h = jax.nn.relu(hk.Linear(8)(x))
    if is_training:
        h = hk.dropout(hk.next_rng_key(), 0.1, h)
    return hk.Linear(2)(h)


def eval_summary(f, *args):
    transformed = hk.transform_with_state(f)
    rng = jax.random.key(42)
    params, state = transformed.init(rng, *args)  # expect
    out, _ = transformed.apply(params, state, rng, *args)  # expect
    return jax.tree_util.tree_map(jnp.shape, params), out.shape


if __name__ == "__main__":
    try:
        print(eval_summary(forward, jnp.ones((1, 3))))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
