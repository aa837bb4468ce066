"""`key_fields.called_for_effect`: a method called as a bare statement is called for what it
changes (its object, or an attribute or item of what it is given), not as a warm-up whose draw
is thrown away. Read on real parsed methods; what a nested function stores runs only when it is
called, and does not count."""

from __future__ import annotations

import libcst as cst
import pytest

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
