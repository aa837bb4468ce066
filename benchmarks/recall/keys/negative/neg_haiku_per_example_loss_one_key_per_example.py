# recall-case: negative
# rule: OPT020
# class: broadcast
# source: https://github.com/stanford-crfm/levanter/commit/7ee99a6f8dc4bbbfad4296b69204da5659df9f7a (the fix: the key is passed to the vmapped call, one key per example, `shaped_rng_split` over the micro-batch shape)
# shown: the step key is split into one key per example and the keys are mapped over with the tokens; the examples drop different positions; prints OK
# style: Haiku transformer-ish language model (hk.transform with hk.dropout on hk.next_rng_key()), per-example loss vmapped over the batch, optax train step
"""Per-example language-model loss with dropout, one key per example."""
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
    example_rngs = jax.random.split(rng, tokens.shape[0])
    losses, dropped = jax.vmap(example_loss, in_axes=(None, 0, 0))(params, example_rngs, tokens)
    return losses.mean(), dropped


def main() -> None:
    data_key, init_key, step_key = jax.random.split(jax.random.PRNGKey(0), 3)
    tokens = jax.random.randint(data_key, (4, SEQ), 0, VOCAB)
    params = model.init(init_key, tokens[0, :-1], is_training=False)
    _, dropped = batch_loss(params, tokens, step_key)
    assert not bool(jnp.array_equal(dropped[0], dropped[1]))
    print("OK")


if __name__ == "__main__":
    main()
