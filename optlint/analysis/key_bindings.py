"""What binding a name does to the keys `KeyFlow` follows: a name bound again holds a fresh key,
`targets = split(key)` holds keys derived from `key`, and `targets = call(...)` may hold keys the
call hands back already consumed (`noise, key = draw(key)`) or a copy of a consumed object.

A base of `KeyFlow` (`key_flow.py`) through `KeyExpressions` (`key_expressions.py`), which
supplies the walk of expressions.
"""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from optlint.analysis.key_aliases import kept_back
from optlint.analysis.key_loops import KeyLoops
from optlint.analysis.key_state import KeyState
from optlint.analysis.key_syntax import (
    name_at_path,
    replaced_from,
    target_name_nodes,
    target_names,
)
from optlint.analysis.prng_keys import Consumption, Returns, key_name


class KeyBindings(KeyLoops):
    """The bindings of `KeyFlow`; the statement and expression walks are its."""

    returns: Returns | None
    threaded: set[int]
    kept: list[tuple[Consumption, cst.Attribute, cst.BaseExpression]]

    def _bind(self, state: KeyState, name: str, node: cst.CSTNode | None = None) -> None:
        self.bound.add(name)
        self._derived.pop(name, None)
        state.bind(name, node)

    def _note_derived(self, call: cst.Call, targets: list[cst.BaseExpression],
                      uses: list[Consumption]) -> None:
        """`targets = call` where `call` folds or splits a key: the names hold its keys."""
        made = next((use for use in uses if use.call is call
                     and use.kind in ("fold", "split")), None)
        if made is not None:
            for target in targets:
                for name in target_names(target):
                    self._derived[name] = made

    def _bind_target(self, target: cst.BaseExpression, state: KeyState) -> None:
        if isinstance(target, (cst.Attribute, cst.Subscript)):
            self._expr(target, state)
            dotted = key_name(target)
            if dotted is not None:
                state.bind(dotted, target)
                self.stored_names.add(dotted)
        elif isinstance(target, (cst.Tuple, cst.List)):
            # `self.key, x = draw(self.key)`: each element bound, attributes included.
            for element in target.elements:
                if isinstance(element.value, (cst.Attribute, cst.Subscript, cst.Tuple,
                                              cst.List)):
                    self._bind_target(element.value, state)
        for name_node in target_name_nodes(target):
            self._bind(state, name_node.value, name_node)

    def _assigned_call(self, call: cst.Call, targets: list[cst.BaseExpression],
                       state: KeyState) -> None:
        """After `targets = call(...)`: a step threading state, and keys the call returned
        already consumed (`noise, key = draw(key)` where `draw` consumed `key` and returns it)."""
        # The state may be a name or an object's attribute (`x, self.state = self.step(key,
        # self.state)`): either way the call is given what it hands back.
        given = {key_name(arg.value) for arg in call.args} - {None}
        if any(name in given for target in targets for name in _threaded_names(target)):
            self.threaded.add(id(call))
        copied = replaced_from(call)
        if copied is not None:
            # `new = state.replace(params=p)`: `new.key` is `state.key`, consumed or not.
            source, replaced = copied
            for dotted, use in list(state.consumed.items()):
                base, _, attr = dotted.partition(".")
                if (base != source or not attr or attr in replaced or dotted in state.maybe
                        or attr.startswith("[")):
                    # (an item by its place: which place a replaced field holds is unknown)
                    continue
                for target in targets:
                    if isinstance(target, cst.Name):
                        state.consumed[f"{target.value}.{attr}"] = use
        if self.returns is None:
            return
        for path, use in self.returns(call).items():
            for target in targets:
                name = name_at_path(target, path)
                if name is not None:
                    state.consumed[name.value] = replace(use, key=name)
                    state.maybe.discard(name.value)
                    state.where.pop(name.value, None)
                else:
                    kept_back(call, target, path, use, state, self.kept)


def _threaded_names(target: cst.BaseExpression) -> list[str]:
    """The names and attributes of names (`state`, `self.state`) an assignment target binds."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in _threaded_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return _threaded_names(target.value)
    name = key_name(target) if isinstance(target, (cst.Name, cst.Attribute)) else None
    return [name] if name is not None else []
