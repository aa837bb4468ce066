"""OPT020 on one key given to two streams of a flax `init` (whole-repository set 2: evojax
`evojax/policy/seq2seq.py:196`, `model.init({'params': key, 'lstm': key}, ...)`, labelled FP:
nothing asks for an `lstm` key, so init without that stream gives the same parameters). A
stream that no code of the project names draws nothing: silent. A stream a module asks for by
name (`self.make_rng('noise')`) draws the same numbers as `params` at the same place: reported,
and so is a stream that code could ask for by a name it holds (`self.make_rng(self.stream)`)."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import pytest

from conftest import opt020_lines, run_optlint_in_process

SOURCE = '''\
import flax.linen as nn
import jax
import jax.numpy as jnp


class Cell(nn.Module):
    @nn.compact
    def __call__(self, carry, x):
        return nn.LSTMCell(4)(carry, x)


class Seq(nn.Module):
    @nn.compact
    def __call__(self, xs):
        scan = nn.scan(Cell, variable_broadcast="params", split_rngs={"params": False},
                       in_axes=1, out_axes=1)
        carry = (jnp.zeros((1, 4)), jnp.zeros((1, 4)))
        _, ys = scan()(carry, xs)
        return nn.Dropout(0.5, deterministic=True)(nn.Dense(3)(ys))


class Noisy(nn.Module):
    @nn.compact
    def __call__(self, x):
        w = self.param("w", nn.initializers.normal(1.0), (4,))
        return x * w + jax.random.normal(self.make_rng("noise"), (4,))


def unnamed_stream(xs):
    key = jax.random.key(0)
    return Seq().init({"params": key, "lstm": key}, xs)["params"]


def named_stream(x):
    key = jax.random.key(1)
    return Noisy().init_with_output({"params": key, "noise": key}, x)
'''

# The same model asks for its noise by a name it holds: any stream may be that name.
HELD_NAME = SOURCE.replace('self.make_rng("noise")', "self.make_rng(self.stream)").replace(
    "class Noisy(nn.Module):\n", 'class Noisy(nn.Module):\n    stream: str = "no" + "ise"\n')


def test_a_stream_nothing_names_draws_nothing(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "streams.py", SOURCE) == [36]
    # The held name could be `lstm` as well.
    assert opt020_lines(tmp_path, "streams.py", HELD_NAME) == [32, 37]


def test_a_stream_nothing_names_when_run(tmp_path: Path) -> None:
    pytest.importorskip("flax")
    import jax
    import jax.numpy as jnp

    (tmp_path / "streams.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "streams.py"))
    xs = jnp.ones((1, 5, 2))
    with jax.debug_key_reuse(True):
        both = namespace["unnamed_stream"](xs)
        out, variables = namespace["named_stream"](jnp.ones(4))  # flax folds: no error
    alone = namespace["Seq"]().init({"params": jax.random.key(0)}, xs)["params"]
    assert all(bool(jnp.all(a == b)) for a, b in zip(jax.tree.leaves(both),
                                                     jax.tree.leaves(alone), strict=True))
    w = variables["params"]["w"]
    assert bool(jnp.allclose(out - w, w))  # the noise repeats the weights' draw


def _cached_lines(root: Path) -> list[int]:
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--jobs", "1",
                                    "--output-format", "json", "--exit-zero", cwd=root)
    assert "internal error" not in result.stderr
    return sorted(f["line"] for f in json.loads(result.stdout or "[]")
                  if f["filename"].endswith("streams.py"))


def test_a_file_coming_to_name_the_stream_is_seen_by_the_cache(tmp_path: Path) -> None:
    """The answer rests on the other files' texts, which streams.py does not import: the cache
    must still see one of them come to ask for the `lstm` stream (can fail: a cached result
    that depends only on imports keeps the finding silent)."""
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "streams.py").write_text(SOURCE)
    (tmp_path / "other.py").write_text("import flax.linen as nn\n")
    assert _cached_lines(tmp_path) == [36]
    (tmp_path / "other.py").write_text(
        "import flax.linen as nn\n\n\nclass Noise(nn.Module):\n    def __call__(self, x):\n"
        "        return self.make_rng('lstm')\n")
    assert _cached_lines(tmp_path) == [31, 36]
