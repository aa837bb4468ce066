# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/stanford-crfm/levanter/commit/7ee99a6f8dc4bbbfad4296b69204da5659df9f7a ("use different keys for the different parts of the batch": `compute_loss` bound the micro-batch key with `partial(model, inference=inference, key=key)` and ran `jax.vmap(model)(input_ids)`, so every example ran its dropouts with that one key)
# shown: every example of the batch drops the same positions (HAZARD, exit 1); the key enters the vmap unbatched, so JAX's key-reuse checker sees one consumption and stays silent
# style: Haiku transformer-ish language model (hk.transform with hk.dropout on hk.next_rng_key()), per-example loss vmapped over the batch, optax train step
"""Per-example language-model loss with dropout, written with Haiku."""
import sys
from functools import partial

import haiku as hk
import jax
import jax.numpy as jnp
import optax

VOCAB, SEQ, WIDTH = 32, 12, 16


def forward(tokens, is_training: bool):
    x = hk.Embed(VOCAB, WIDTH)(tokens)
    x = hk.Linear(WIDTH)(x) + 1.0
    if is_training:
        x = hk.dropout(hk.next_rng_key(), 0.4, x)
    dropped = x == 0.0
    return hk.Linear(VOCAB)(jax.nn.gelu(x)), dropped


model = hk.transform(forward)


def example_loss(params, rng, tokens):
    logits, dropped = model.apply(params, rng, tokens[:-1], is_training=True)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, tokens[1:]).mean()
    return loss, dropped


@jax.jit
def batch_loss(params, tokens, rng):
    per_example = partial(example_loss, params, rng)
    losses, dropped = jax.vmap(per_example)(tokens)  # expect
    return losses.mean(), dropped


def main() -> None:
    data_key, init_key, step_key = jax.random.split(jax.random.PRNGKey(0), 3)
    tokens = jax.random.randint(data_key, (4, SEQ), 0, VOCAB)
    params = model.init(init_key, tokens[0, :-1], is_training=False)
    loss, dropped = batch_loss(params, tokens, step_key)  # expect
    print("loss", float(loss), "dropped per example", dropped.sum(axis=(1, 2)))
    if bool(dropped.any()) and all(bool(jnp.array_equal(dropped[0], d)) for d in dropped[1:]):
        print("HAZARD: every example of the batch drew the same dropout mask")
        sys.exit(1)
    print("examples draw different masks")


if __name__ == "__main__":
    main()
