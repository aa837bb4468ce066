"""What a function hands on already consumed: the keys its return value holds (`return x,
key` after `normal(key)`), the keys stored in a returned object (`state.replace(params=p)`
after `split(state.key)`), and the keys it keeps in an attribute (`self.state = State(key=key)`
after `split(key)`). Whatever draws from them later draws again."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.key_state import KeyState
from optlint.analysis.key_syntax import constructs, replaced_from
from optlint.analysis.prng_keys import ITEM, Consumption, key_name


def note_stored(value: cst.BaseExpression, state: KeyState, own: set[int],
                stored: list[tuple[Consumption, cst.BaseExpression]], depth: int = 0) -> None:
    """Consumed keys the returned object carries on: `state` itself or `state.replace(...)`
    whose `state.key` was consumed, a constructor given a consumed key; added to `stored` with
    the returned expression (but not what the returned expression consumes itself, `own`)."""
    if isinstance(value, (cst.Tuple, cst.List)) and depth < 2:
        for element in value.elements:
            note_stored(element.value, state, own, stored, depth + 1)
        return
    carried: list[str] = []
    if isinstance(value, cst.Dict):
        # `{"key": carry["key"], ...}` after drawing from `carry["key"]`.
        carried = [name for element in value.elements
                   if isinstance(element, cst.DictElement)
                   for name in [key_name(element.value)] if name is not None
                   and name in state.consumed]
    elif isinstance(value, cst.Name):
        # (not the items of a list of keys: `return keys` hands on the ones left unused)
        carried = [dotted for dotted in state.consumed
                   if dotted.startswith(value.value + ".") and ITEM not in dotted]
    elif isinstance(value, cst.Call):
        copied = replaced_from(value)
        if copied is not None:
            carried = [dotted for dotted in state.consumed
                       if dotted.startswith(copied[0] + ".")
                       and dotted.partition(".")[2] not in copied[1]]
        if copied is not None or constructs(value):
            # A constructor or a copy given a consumed key: `State(params, state.key)`.
            for arg in value.args:
                name = key_name(arg.value)
                if name is not None and name in state.consumed:
                    carried.append(name)
                elif name is not None and "." in name:
                    # A part of the given object handed on whole (`Env(ghosts=state.ghosts)`
                    # after a draw from `state.ghosts.key`): the keys it holds.
                    carried += [dotted for dotted in state.consumed
                                if dotted.startswith(name + ".") and ITEM not in dotted]
                elif (isinstance(arg.value, cst.Call) and constructs(arg.value)
                      and depth < 2):
                    # A part rebuilt in place: `Env(ghosts=Ghosts(keys=state.ghosts.keys))`.
                    note_stored(arg.value, state, own, stored, depth + 1)
    for dotted in carried:
        use = state.consumed.get(dotted)
        if (use is not None and dotted not in state.maybe and use.kind != "fold"
                and "\x00" not in dotted and id(use) not in own):
            stored.append((use, value))


def note_returned(value: cst.BaseExpression, state: KeyState, path: tuple[int, ...],
                  returned: dict[tuple[int, ...], Consumption],
                  where: dict[tuple[int, ...], cst.CSTNode] | None = None) -> None:
    """The consumed keys a returned value holds, by their place in it (`return x, key`);
    `where`: the returned name of each, for the key's path in messages."""
    if isinstance(value, cst.Name):
        use = state.consumed.get(value.value)
        if use is not None and value.value not in state.maybe:
            returned.setdefault(path, use)
            if where is not None:
                where.setdefault(path, value)
        if len(path) < 3:
            # `return carry` after `carry = (params, key)`: its items, by their place.
            prefix = value.value + ITEM
            for dotted, held in state.consumed.items():
                index = dotted[len(prefix):-1] if dotted.startswith(prefix) else ""
                if index.isdigit() and dotted not in state.maybe:
                    returned.setdefault((*path, int(index)), held)
    elif isinstance(value, (cst.Tuple, cst.List)) and len(path) < 3:
        for position, element in enumerate(value.elements):
            if isinstance(element, cst.StarredElement):
                return
            note_returned(element.value, state, (*path, position), returned, where)


def note_kept(target: cst.BaseExpression, value: cst.BaseExpression, state: KeyState,
              kept: list[tuple[Consumption, cst.Attribute, cst.BaseExpression]],
              given: set[str | None]) -> None:
    """`obj.attr = key` or `obj.attr = State(..., key=key)` with `key` consumed: the object
    keeps a consumed key; added to `kept` with the attribute and the expression holding it.
    `given`: the keys the value consumes itself (a layer built with `key=key`)."""
    if not isinstance(target, cst.Attribute):
        return
    held: list[cst.BaseExpression] = [value]
    if isinstance(value, cst.Call) and constructs(value):
        held = [arg.value for arg in value.args]
    for expr in held:
        name = key_name(expr)
        use = state.consumed.get(name) if name is not None else None
        if (use is not None and name is not None and name not in state.maybe
                and name not in given
                and use.kind != "fold" and not use.repeated):
            kept.append((use, target, expr))
