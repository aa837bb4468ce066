"""The methods a call of an object of unknown class may run, summarised as one group
(`key_method_groups.py`): a file of many composites, each calling its layers (`layer(x,
key=k)` for `layer` of `for layer in self.layers`), makes one cycle through every `__call__` of
the file. Summarised one method at a time, each method was summarised again for each other one
met (the summaries and the signature checks grew with the square of the classes: a 20k-line
file took 26 s). Counted, not timed: twice the classes, about twice the work. The findings are
those of the one class that reuses its key, whatever the file's size."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import opt020_lines

import optlint.analysis.key_methods as key_methods
from optlint.analysis.key_flow import KeyFlow

HEAD = "import jax\n"

COMPOSITE = '''

class Stack{n}:
    def __init__(self, layers):
        self.layers = layers

    def __call__(self, x, *, key):
        keys = jax.random.split(key, len(self.layers))
        for layer, layer_key in zip(self.layers, keys):
            x = layer(x, key=layer_key)
        return x
'''

# Gives every layer the one key: the reuse the check must still find.
REUSING = '''

class Reusing:
    def __init__(self, layers):
        self.layers = layers

    def __call__(self, x, *, key):
        for layer in self.layers:
            x = layer(x, key=key)
        return x
'''


def _source(classes: int) -> str:
    return HEAD + "".join(COMPOSITE.format(n=n) for n in range(classes)) + REUSING


def _counted(tmp_path: Path, classes: int, monkeypatch: pytest.MonkeyPatch
             ) -> tuple[int, int, list[int]]:
    """Summaries made, signature checks, and OPT020's lines, on a file of `classes`
    composites and the reusing one."""
    counts = {"summaries": 0, "accepts": 0}
    run, accepts = KeyFlow.run, key_methods.accepts

    def counted_run(self: KeyFlow, *args: object, **kwargs: object) -> object:
        counts["summaries"] += 1
        return run(self, *args, **kwargs)

    def counted_accepts(*args: object) -> bool:
        counts["accepts"] += 1
        return accepts(*args)

    monkeypatch.setattr(KeyFlow, "run", counted_run)
    monkeypatch.setattr(key_methods, "accepts", counted_accepts)
    folder = tmp_path / str(classes)
    folder.mkdir()
    lines = opt020_lines(folder, "stacks.py", _source(classes), "--jobs", "1")
    monkeypatch.undo()
    return counts["summaries"], counts["accepts"], lines


def test_the_work_grows_with_the_classes_not_their_square(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    summaries, accepts, lines = _counted(tmp_path, 12, monkeypatch)
    twice_summaries, twice_accepts, twice_lines = _counted(tmp_path, 24, monkeypatch)
    reuse = _source(12).splitlines().index("            x = layer(x, key=key)") + 1
    assert lines == [reuse]
    assert twice_lines == [reuse + 12 * COMPOSITE.count("\n")]
    assert twice_summaries <= 2.5 * summaries, (summaries, twice_summaries)
    assert twice_accepts <= 2.5 * accepts, (accepts, twice_accepts)
