"""OPT020 where a callee splits its key only to hand the pieces to a function its caller gives
(`encode_fn(model, x, key=k)`, representax's `MNRTask.representations`, issue #25): whether the
pieces reach any draw depends on the function given, which the callee cannot see, as a key handed
whole to such a function is unseen. The reuse is `--preview` only, saying so. The look-alike
that also draws from a split key itself is still reported by default. Both run with JAX: given a
function that deletes its key, fresh keys for the split change nothing; the look-alike's draw
changes."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import finding_line, opt020_findings

SOURCE = '''\
import jax


def encode(model, x, *, key=None):
    del key
    return x * model


def representations(model, x, key, encode_fn):
    first, second = jax.random.split(key)
    return encode_fn(model, x, key=first) + encode_fn(model, x, key=second)


def noisy_representations(model, x, key, encode_fn):
    first, second = jax.random.split(key)
    return encode_fn(model, x, key=first) + jax.random.normal(second, x.shape)


def given(key):
    x = jax.random.normal(key, (3,))
    return representations(2.0, x, key, encode)


def drawn(key):
    x = jax.random.normal(key, (3,))
    return noisy_representations(2.0, x, key, encode)
'''


def _line(text: str) -> int:
    return SOURCE.splitlines().index(text) + 1


def test_a_split_only_for_a_given_function_is_preview(tmp_path: Path) -> None:
    default = [finding_line(f) for f in opt020_findings(tmp_path, "given.py", SOURCE)]
    assert default == [_line("    return noisy_representations(2.0, x, key, encode)")]
    preview = {finding_line(f): f["message"]
               for f in opt020_findings(tmp_path, "given.py", SOURCE, "--preview")}
    unseen = preview[_line("    return representations(2.0, x, key, encode)")]
    assert ("[preview: `representations` splits the key only for `encode_fn`, given by its "
            "caller") in unseen


def test_fresh_split_keys_change_only_the_drawing_callee(tmp_path: Path) -> None:
    (tmp_path / "given.py").write_text(SOURCE)
    module = runpy.run_path(str(tmp_path / "given.py"))
    x = jax.random.normal(jax.random.key(0), (3,))
    for name, changes in (("representations", False), ("noisy_representations", True)):
        function = module[name]
        one = np.asarray(function(2.0, x, jax.random.key(0), module["encode"]))
        other = np.asarray(function(2.0, x, jax.random.key(1), module["encode"]))
        assert (not np.array_equal(one, other)) == changes, name
