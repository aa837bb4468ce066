"""One key value under several names: `k = key`, `key = state.key`, a tuple of keys built
(`carry = (params, key)`) or unpacked (`params, key = carry`), an object or a dict built with
it (`State(key=key)`, `{"key": key}`). Drawing from one name draws from
the value every other name holds, so the walk (`KeyFlow`) links the names an assignment makes
the same and gives a consumption of one to all of them (`KeyState.same`).

A link lasts until either name is bound again (`KeyState.bind`) and, where paths join, only
while every path holds it: it says what the assignment proves, never a guess.
"""

from __future__ import annotations

import re
from dataclasses import replace
from collections.abc import Collection, Mapping

import libcst as cst

from optlint.analysis.key_state import KeyState
from optlint.analysis.key_syntax import constructs, replaced_from, target_names
from optlint.analysis.prng_keys import ITEM, Consumption, key_name


def link_assigned(target: cst.BaseExpression, value: cst.BaseExpression,
                  state: KeyState, given: Collection[str | None] = (),
                  held: Mapping[str, cst.BaseExpression] | None = None) -> None:
    """After `target = value` (the target already bound): the names that now hold one value.
    `given`: the keys `value` consumes itself (a layer built with `key=key` draws from it
    rather than holding it); `held`: the fields the object `value` builds keeps its
    arguments in (`key_holders.py`)."""
    if isinstance(value, cst.Call):
        _link_fields(target, value, state, given)
        for suffix, argument in (held or {}).items():
            source = key_name(argument)
            name = _name_at(target, suffix)
            if source is not None and source not in given and name is not None:
                _link(name, source, state)
        return
    if isinstance(value, cst.Dict):
        # `carry = {"key": key}`: `carry["key"]` is `key`.
        holder = key_name(target)
        for element in value.elements if holder is not None and ITEM not in holder else ():
            if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
                entry = element.key.evaluated_value
                source = key_name(element.value)
                if isinstance(entry, str) and entry.isidentifier() and source is not None:
                    _link(f"{holder}.{entry}", source, state)
        return
    if isinstance(value, (cst.Tuple, cst.List)):
        sources = _elements(value)
        if sources is None:
            return
        whole = key_name(target)
        if whole is not None and ITEM not in whole:
            # `carry = (params, key)`: `carry[1]` is `key`.
            for index, source in enumerate(sources):
                if source is not None:
                    _link(f"{whole}{ITEM}{index}]", source, state)
            return
        if isinstance(target, (cst.Tuple, cst.List)):
            # `a, key = x, k` (not a swap: a source bound again by the assignment is its new
            # value, no longer the one assigned).
            targets = _elements(target)
            if targets is None or len(targets) != len(sources):
                return
            rebound = set(target_names(target))
            for name, source in zip(targets, sources, strict=True):
                if (name is not None and source is not None
                        and source.split(".", 1)[0] not in rebound):
                    _link(name, source, state)
        return
    source = key_name(value)
    if source is None or source.split(".", 1)[0] in set(target_names(target)):
        return  # `key = key.next` and the like: the old value is gone
    if isinstance(target, (cst.Tuple, cst.List)):
        # `params, key = carry`: `key` is `carry[1]`.
        targets = _elements(target)
        if targets is None or ITEM in source:
            return
        for index, name in enumerate(targets):
            if name is not None:
                _link(name, f"{source}{ITEM}{index}]", state)
        return
    name = key_name(target)
    if name is not None and name != source:
        _link(name, source, state)


def _name_at(target: cst.BaseExpression, suffix: str) -> str | None:
    """The name the part `suffix` of an assigned value goes under (`""`: all of it, `.key`: its
    field, `.[1]`: its second item): `state.key` for `state = ...`, `key` for `params, key =
    ...` at `.[1]`."""
    holder = key_name(target)
    if holder is not None:
        return None if ITEM in holder and suffix else holder + suffix
    item = re.match(r"\.\[(\d+)\]", suffix)
    if item is None or not isinstance(target, (cst.Tuple, cst.List)):
        return None
    names = _elements(target)
    index = int(item.group(1))
    if names is None or index >= len(names) or names[index] is None:
        return None
    rest = suffix[item.end():]
    return None if rest and ITEM in str(names[index]) else f"{names[index]}{rest}"


def forwarded_params(value: cst.BaseExpression, state: KeyState, params: Collection[str],
                     forwarded: dict[str, str]) -> None:
    """At `return value`: the parameters the function returns as they were given, by where
    the returned value holds them (`""`: it is the parameter, `.key`: its field, `.[1]`: its
    second item), added to `forwarded` (the summary callers link by, `key_holders.py`)."""
    def given(name: str | None) -> str | None:
        if name is None:
            return None
        for candidate in (name, *state.same.get(name, ())):
            if candidate in params and candidate not in state.rebound:
                return candidate
        return None

    whole = given(key_name(value)) if isinstance(value, cst.Name) else None
    if whole is not None:
        forwarded.setdefault("", whole)
    if isinstance(value, cst.Name):
        prefix = value.value + "."
        for held in list(state.same):
            param = given(held) if held.startswith(prefix) else None
            if param is not None and held.count(".") == 1:
                forwarded.setdefault(held[len(value.value):], param)
    elif isinstance(value, (cst.Tuple, cst.List)):
        for index, name in enumerate(_elements(value) or ()):
            param = given(name)
            if param is not None:
                forwarded.setdefault(f"{ITEM}{index}]", param)
    elif isinstance(value, cst.Call) and constructs(value):
        for arg in value.args:
            param = given(key_name(arg.value)) if arg.keyword is not None else None
            if param is not None and arg.keyword is not None:
                forwarded.setdefault(f".{arg.keyword.value}", param)


def _link_fields(target: cst.BaseExpression, value: cst.Call, state: KeyState,
                 given: Collection[str | None]) -> None:
    """`state = State(params, key=key)`, `new = state.replace(key=key)`: the object holds
    the key it is given by keyword as the field of that name (`state.key` is `key`)."""
    holder = key_name(target)
    plain_dict = isinstance(value.func, cst.Name) and value.func.value == "dict"
    if holder is None or ITEM in holder or not (constructs(value) or plain_dict
                                               or replaced_from(value) is not None):
        return
    for arg in value.args:
        source = key_name(arg.value) if arg.keyword is not None else None
        if arg.keyword is not None and source is not None and source not in given:
            _link(f"{holder}.{arg.keyword.value}", source, state)


def _elements(node: cst.Tuple | cst.List) -> list[str | None] | None:
    """The names a tuple's elements are followed under (None for one that is not followed);
    None for a tuple with a starred element (its positions are not known)."""
    names: list[str | None] = []
    for element in node.elements:
        if isinstance(element, cst.StarredElement):
            return None
        names.append(key_name(element.value))
    return names


def _link(name: str, source: str, state: KeyState) -> None:
    """`name` now holds the value `source` holds: consumed already if `source` is."""
    if name == source or "\x00" in name or "\x00" in source:
        return
    group = {name, source, *state.same.get(source, ())}
    for member in group:
        state.same[member] = frozenset(group - {member})
    used = state.consumed.get(source)
    if used is not None:
        state.consumed[name] = used
        state.where.pop(name, None)
        if source in state.maybe:
            state.maybe.add(name)
        else:
            state.maybe.discard(name)


def linked(name: str, state: KeyState) -> frozenset[str]:
    """The other names holding the value `name` holds."""
    return state.same.get(name, frozenset())


def linked_item_fields(name: str, state: KeyState) -> list[str]:
    """`behavior.rng_key` where `behavior` holds an item of a parameter (`ctrl, behavior =
    carry`): the same key as that item's field, `carry.[1].rng_key`, for the summary (a loop's
    initial carry holds it there: `key_carried_in.py`)."""
    base, dot, field = name.partition(".")
    if not dot or ITEM in field or "\x00" in name:
        return []
    return [f"{other}.{field}" for other in linked(base, state) if ITEM in other]


def kept_back(call: cst.Call, target: cst.BaseExpression, path: tuple[int, ...],
              use: Consumption, state: KeyState,
              kept: list[tuple[Consumption, cst.Attribute, cst.BaseExpression]]) -> None:
    """`(..., self.key, ...) = step(..., self.key)` where `step` returns, at that place, the
    key it was given after consuming it: `self.key` keeps a consumed key (noted in `kept`,
    with the argument that handed it over), and the next call consumes it again."""
    for position in path:
        if not isinstance(target, (cst.Tuple, cst.List)) or position >= len(target.elements):
            return
        target = target.elements[position].value
    dotted = key_name(target) if isinstance(target, cst.Attribute) else None
    if dotted is None or not isinstance(target, cst.Attribute):
        return
    state.consumed[dotted] = replace(use, key=target)
    state.where.pop(dotted, None)
    given = next((arg.value for arg in call.args if key_name(arg.value) == dotted), None)
    if given is not None:
        kept.append((replace(use, key=given), target, given))
