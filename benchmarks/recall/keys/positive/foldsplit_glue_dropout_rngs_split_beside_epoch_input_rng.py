# recall-case: positive
# rule: OPT020
# class: fold-in-split
# source: https://github.com/huggingface/transformers/pull/11727 ("Improvements to Flax finetuning script": "Fixes a bug in RNG handling. We weren't splitting them appropriately before sharding them during training ... RNGs should always be split and not re-used")
# shown: `rng = PRNGKey(seed)`, `dropout_rngs = jax.random.split(rng, jax.local_device_count())`, then every epoch `rng, input_rng = jax.random.split(rng)` on the same `rng`: on threefry `split(rng, 2) == split(rng, n)[:2]`, so epoch 0's shuffle key is device 1's dropout key and the carried `rng` is device 0's; run on 2 host devices it prints `HAZARD: epoch 0's shuffle key equals device 1's dropout key`, and with typed keys under jax_debug_key_reuse the epoch split raises KeyReuseError
# style: Hugging Face Flax GLUE fine-tuning script: dataclass arguments, a flax.linen classifier with dropout, a TrainState with optax adamw, a shuffling data loader, a pmapped train_step that splits and returns its dropout rng, an epoch loop in main()
"""Fine-tune a small text classifier on a GLUE-like task, data parallel with pmap."""
import os
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=2")

from dataclasses import dataclass  # noqa: E402

import flax.linen as nn  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from flax import jax_utils  # noqa: E402
from flax.training import train_state  # noqa: E402


@dataclass
class TrainingArguments:
    seed: int = 42
    num_train_epochs: int = 2
    per_device_train_batch_size: int = 4
    learning_rate: float = 2e-5
    weight_decay: float = 0.01
    typed_keys: bool = False


class Classifier(nn.Module):
    vocab_size: int = 50
    hidden: int = 16
    num_labels: int = 2

    @nn.compact
    def __call__(self, input_ids, deterministic=True):
        x = nn.Embed(self.vocab_size, self.hidden)(input_ids).mean(axis=1)
        x = nn.Dropout(rate=0.1)(x, deterministic=deterministic)
        return nn.Dense(self.num_labels)(x)


def make_dataset(n=32, length=6):
    rs = np.random.RandomState(0)
    return {"input_ids": rs.randint(0, 50, (n, length)), "labels": rs.randint(0, 2, (n,))}


def glue_train_data_collator(rng, dataset, batch_size):
    """Shuffle with `rng` and yield sharded batches."""
    steps = len(dataset["labels"]) // batch_size
    perms = jax.random.permutation(rng, len(dataset["labels"]))
    perms = np.asarray(perms)[: steps * batch_size].reshape((steps, batch_size))
    for perm in perms:
        batch = {k: v[perm] for k, v in dataset.items()}
        yield jax.tree_util.tree_map(lambda x: x.reshape((jax.local_device_count(), -1) + x.shape[1:]), batch)


def train_step(state, batch, dropout_rng):
    dropout_rng, new_dropout_rng = jax.random.split(dropout_rng)

    def loss_fn(params):
        logits = state.apply_fn({"params": params}, batch["input_ids"], deterministic=False,
                                rngs={"dropout": dropout_rng})
        return optax.softmax_cross_entropy_with_integer_labels(logits, batch["labels"]).mean()

    loss, grad = jax.value_and_grad(loss_fn)(state.params)
    grad = jax.lax.pmean(grad, "batch")
    return state.apply_gradients(grads=grad), jax.lax.pmean(loss, "batch"), new_dropout_rng


def main(args: TrainingArguments):
    make_key = jax.random.key if args.typed_keys else jax.random.PRNGKey
    train_dataset = make_dataset()
    model = Classifier()
    params = model.init(make_key(0), jnp.ones((1, 6), jnp.int32))["params"]
    tx = optax.adamw(args.learning_rate, weight_decay=args.weight_decay)
    state = jax_utils.replicate(train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx))
    p_train_step = jax.pmap(train_step, axis_name="batch", donate_argnums=(0,))

    # Initialize our training
    rng = make_key(args.seed)
    dropout_rngs = jax.random.split(rng, jax.local_device_count())  # expect
    total_batch_size = args.per_device_train_batch_size * jax.local_device_count()

    seen = []
    for epoch in range(args.num_train_epochs):
        rng, input_rng = jax.random.split(rng)  # expect
        seen.append((epoch, input_rng, dropout_rngs))
        for batch in glue_train_data_collator(input_rng, train_dataset, total_batch_size):
            state, loss, dropout_rngs = p_train_step(state, batch, dropout_rngs)
        print(f"epoch {epoch}: loss {float(loss[0]):.4f}")
    return seen


if __name__ == "__main__":
    history = main(TrainingArguments())
    _, input_rng, first_dropout_rngs = history[0]
    if np.array_equal(np.asarray(input_rng), np.asarray(first_dropout_rngs[1])):
        print("HAZARD: epoch 0's shuffle key equals device 1's dropout key (split(rng, 2) is a prefix of split(rng, n))")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        main(TrainingArguments(typed_keys=True))
    except jax.errors.KeyReuseError as err:
        print(f"HAZARD: KeyReuseError: {str(err).splitlines()[0]}")
        sys.exit(0)
    print("no KeyReuseError")
