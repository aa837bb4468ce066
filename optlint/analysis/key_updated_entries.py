"""Entries a mapping's `update` call sets: `carry.update(key=key, actor=new_actor)` or
`carry.update({"key": key})` binds `carry["key"]` anew, as `carry["key"] = key` does (CORL
`rebrac.py`'s `fori_loop` step hands its new key back that way). The flow follows `carry["key"]`
as `carry.key`, so the call binds those dotted names."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.prng_keys import key_name


def updated_entries(call: cst.Call) -> list[str]:
    """The dotted names (`carry.key`) `name.update(...)` sets: one per keyword, or per string
    key of a dict literal given alone (not an entry set to itself, `update(key=carry["key"])`);
    none for any other call."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "update"
            and isinstance(func.value, cst.Name)):
        return []
    owner = func.value.value
    given: list[tuple[str, cst.BaseExpression]] = []
    if len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star and (
            isinstance(call.args[0].value, cst.Dict)):
        given = [(element.key.evaluated_value, element.value)
                 for element in call.args[0].value.elements
                 if isinstance(element, cst.DictElement)
                 and isinstance(element.key, cst.SimpleString)
                 and isinstance(element.key.evaluated_value, str)]
    else:
        given = [(arg.keyword.value, arg.value) for arg in call.args
                 if arg.keyword is not None and not arg.star]
    return [f"{owner}.{entry}" for entry, value in given
            if key_name(value) != f"{owner}.{entry}"]
