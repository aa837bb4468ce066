"""`key_fields.called_for_effect`: a method called as a bare statement is called for what it
changes (its object, or an attribute or item of what it is given), not as a warm-up whose draw
is thrown away. Read on real parsed methods; what a nested function stores runs only when it is
called, and does not count."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from conftest import opt020_findings
from optlint.analysis.index import build_index
from optlint.analysis.key_fields import called_for_effect

SOURCE = '''\
class Walker:
    def counts(self, state):
        self.accepted += 1

    def moves(self, state):
        state.x = 1.0

    def fills(self, buffer, i):
        buffer[i] += 1

    def unpacks(self, state, y):
        (state.x, y) = (y, 0)

    def reads(self, state):
        y = state.x + 1
        return y

    def stores_a_local(self, state):
        other = state
        z = {}
        z["x"] = other.x

    def nested(self, state):
        def later():
            state.x = 2.0

        setter = lambda: later()
        return setter
'''

EXPECTED = {"counts": True, "moves": True, "fills": True, "unpacks": True, "reads": False,
            "stores_a_local": False, "nested": False}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_what_a_method_changes(name: str) -> None:
    module = cst.parse_module(SOURCE)
    index = build_index(module)
    (walker,) = [node for node in module.body if isinstance(node, cst.ClassDef)]
    methods = {node.name.value: node for node in walker.body.body
               if isinstance(node, cst.FunctionDef)}
    assert called_for_effect(index, methods[name]) is EXPECTED[name]


CALLED_THRICE = '''\
import jax


class Sampler:
    def draw(self, key):
        return jax.random.normal(key, (3,))

    def run(self, key):
        k1, k2, k3 = jax.random.split(key, 3)
        self.draw(k1)
        self.draw(k2)
        return self.draw(k3)
'''


def test_asked_once_per_method_not_at_each_call(tmp_path: Path, monkeypatch) -> None:
    """OPT020 asks it of a method once (`FileKeyCalls._for_effect`): it walks the whole body."""
    from optlint.analysis import key_calls

    asked: list[str] = []
    ask = key_calls.called_for_effect

    def counted(index, method):  # type: ignore[no-untyped-def]
        asked.append(method.name.value)
        return ask(index, method)

    monkeypatch.setattr(key_calls, "called_for_effect", counted)
    assert opt020_findings(tmp_path, "sampler.py", CALLED_THRICE, "--jobs", "1") == []
    assert asked == ["draw"]
