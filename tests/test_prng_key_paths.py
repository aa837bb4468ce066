"""OPT020 on the ways real fix commits passed keys (issue #25): loops whose first iteration
is special, ... Each program is checked by the real command line."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_optlint_in_process as run_optlint
from conftest import opt020_lines


FIRST_ITERATION_SPECIAL = '''\
import haiku as hk
import jax


def mlp(x, z, sizes, dropout_input):
    for i, size in enumerate(sizes):
        if i == 0:
            x = hk.Linear(size)(x)
            if dropout_input:
                x = hk.dropout(z, 0.1, x)
        else:
            x = hk.Linear(size)(x)
            x = hk.dropout(z, 0.1, x)
        x = jax.nn.relu(x)
    return x


def only_first(x, z, sizes):
    for i, size in enumerate(sizes):
        if i == 0:
            x = hk.dropout(z, 0.1, x)
        x = hk.Linear(size)(x)
    return x

'''


def test_a_loop_whose_first_iteration_is_special(tmp_path: Path) -> None:
    """`if i == 0: ... else: dropout(z, ...)`: every iteration but the first takes the `else`,
    so its draw repeats from the second iteration on; a draw only the first iteration makes
    (`if i == 0:` alone) is made once."""
    assert opt020_lines(tmp_path, "mlp.py", FIRST_ITERATION_SPECIAL) == [13]


SCAN_WRAPPERS = '''\
import jax


def scan_steps(f, xs, init):
    def body(carry, x):
        y, carry = f(x, carry)
        return carry, y

    return jax.lax.scan(body, init, xs)


def python_scan(f, init, xs):
    carry = init
    for x in xs:
        carry, y = f(carry, x)
    return carry


def call_once(f, x):
    return f(x, 0)


def noisy(xs, key):
    def step(x, carry):
        noise = jax.random.normal(key, x.shape)
        return x + noise, carry + 1

    return scan_steps(step, xs, 0)


def noisy_python(xs, key):
    def step(carry, x):
        noise = jax.random.normal(key, x.shape)
        return carry + noise * x, noise

    return python_scan(step, 0.0, xs)


def noisy_once(x, key):
    def step(x, carry):
        return x + jax.random.normal(key, x.shape), carry

    return call_once(step, x)
'''


def test_a_closure_run_by_a_scan_written_in_the_project(tmp_path: Path) -> None:
    """A project function that runs the function it is given once per step (a nested body
    given to `jax.lax.scan` calls it, or a Python loop threads a carry through it): a closure
    given to it drawing from an enclosing key draws the same numbers at every step. A function
    that calls it once is no loop."""
    assert opt020_lines(tmp_path, "scan.py", SCAN_WRAPPERS) == [25, 33]


TRAX_SCAN = '''\
from trax import fastmath
from trax.layers import base


def _scan(f, xs, init_value, remat=False):
    def transposed_f(c, x):
        y, d = f(x, c)
        return d, y
    if remat:
        transposed_f = fastmath.remat(transposed_f)
    last_value, ys = fastmath.scan(transposed_f, init_value, xs)
    return ys, last_value


class Scan(base.Layer):
    def forward(self, inputs):
        weights = self.weights[0]

        def scannable_fn(x, carry_and_state):
            carry, state = carry_and_state
            res, new_state = self.sublayer.pure_fn(x, weights, state, self.rng)
            return res, (carry, new_state)

        ys, _ = _scan(scannable_fn, inputs, 0)
        return ys
'''


def test_a_trax_sublayer_run_with_the_layer_rng_in_every_step(tmp_path: Path) -> None:
    """trax's `pure_fn(x, weights, state, rng)` runs a layer with that rng; handed
    `self.rng` (a key held by an attribute) in every step of a scan, every step draws alike."""
    assert opt020_lines(tmp_path, "combinators.py", TRAX_SCAN) == [21]


THROWN_AWAY_LAST = '''\
import haiku as hk
import jax


def eval_summary(f, log):
    f_orig = hk.transform_with_state(f)
    f_logged = hk.transform_with_state(log)

    def init_apply(*args):
        rng = jax.random.PRNGKey(42)
        params, state = f_orig.init(rng, *args)
        f_logged.apply(params, state, rng, *args)

    return init_apply


def last_draw_thrown_away(key):
    x = jax.random.normal(key, (2,))
    jax.random.uniform(key, (2,))
    return x


def sample_many(n, key):
    return jax.random.normal(key, (n,))


key = jax.random.PRNGKey(0)
samples = sample_many(10, key)
_ = sample_many(2, key)  # a warm-up, after a run in a notebook's earlier cell
'''


def test_a_last_call_made_for_its_effect(tmp_path: Path) -> None:
    """A call made as a statement after a draw is made for what it does (`apply` of a
    function that records the modules it runs): its draw counts. A `jax.random` draw thrown
    away does nothing, nor does a call assigned to `_` (a warm-up)."""
    assert opt020_lines(tmp_path, "summarise.py", THROWN_AWAY_LAST) == [12]


SPLATTED_KEY = '''\
import jax
import numpyro.distributions as dist


def test_threshold(plan, pipeline, state):
    common = {"noise": 0.1, "key": jax.random.key(4), "n_sweeps": 12}
    strict = plan.sample(pipeline, state, rhat_max=1.0, **common)
    loose = plan.sample(pipeline, state, rhat_max=1e6, **common)
    assert strict.rhat == loose.rhat


def by_keyword(plan, pipeline, key):
    a = plan.sample(pipeline, key=key)
    b = plan.sample(pipeline, key=key)
    return a, b
'''


def test_a_key_given_by_name_or_in_a_splatted_mapping(tmp_path: Path) -> None:
    """A consumer row taking its key at position 0 or as `key=`: a key given by name (or in
    `**common`) is the key, and the first positional argument is another parameter; the
    message names `common["key"]`, not `pipeline`."""
    (tmp_path / "test_plan.py").write_text(SPLATTED_KEY)
    result = run_optlint("check", "test_plan.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    findings = json.loads(result.stdout)
    assert sorted(f["line"] for f in findings) == [8, 14]
    messages = {f["line"]: f["message"] for f in findings}
    assert messages[8].startswith('`common["key"]`') and "pipeline`" not in messages[8]
    assert messages[14].startswith("`key`")


MODULE_OBJECT_SHIM = '''\
import types

from haiku._src import transform
import jax

# If you are forking replace this block with `import haiku as hk`.
hk = types.ModuleType("haiku")
hk.transform_with_state = transform.transform_with_state


def eval_summary(f, logged):
    f_orig = hk.transform_with_state(f)
    f_logged = hk.transform_with_state(logged)

    def init_apply(*args):
        rng = jax.random.PRNGKey(42)
        params, state = f_orig.init(rng, *args)
        f_logged.apply(params, state, rng, *args)

    return init_apply
'''


def test_haiku_through_a_module_object_the_file_builds(tmp_path: Path) -> None:
    """Haiku's own modules build `hk` as a module object and set `hk.transform_with_state =
    transform.transform_with_state`: `init` and `apply` of what it makes consume their key."""
    assert opt020_lines(tmp_path, "summarise.py", MODULE_OBJECT_SHIM) == [18]


GIVEN_FUNCTIONS = '''\
import jax


@jax.jit
def train_step(optimizer, batch, rng):
    def loss_fn(model):
        logits = model(rng, batch["query"])
        return logits.mean()

    grad = jax.grad(loss_fn)(optimizer.target)
    return optimizer.apply_gradient(grad)


def train(optimizer, batches):
    rng = jax.random.PRNGKey(0)
    for batch in batches:
        optimizer = train_step(optimizer, batch, rng)
    return optimizer


def compute_loss(classifier, inputs, key):
    return jax.vmap(classifier, in_axes=(0, None, None))(inputs, True, key).mean()
'''


def test_a_key_handed_to_a_function_the_caller_gives(tmp_path: Path) -> None:
    """A key handed to a function given as a parameter (`model(rng, x)`; `vmap(classifier,
    in_axes=(0, None, None))(x, True, key)`) may be drawn from or ignored: the analysis cannot
    see which, so the reuse is reported under `--preview` only, saying so."""
    assert opt020_lines(tmp_path, "train.py", GIVEN_FUNCTIONS) == []
    (tmp_path / "train.py").write_text(GIVEN_FUNCTIONS)
    result = run_optlint("check", "train.py", "--select", "OPT020", "--no-cache", "--preview",
                         "--output-format", "json", cwd=tmp_path)
    findings = json.loads(result.stdout)
    assert sorted(f["line"] for f in findings) == [17, 22]
    assert all("[preview: `" in f["message"] and "function given by a caller" in f["message"]
               for f in findings)
