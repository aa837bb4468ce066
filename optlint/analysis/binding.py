"""Which expression a call passes to which parameter: the one binder every rule and the verifier ask.

Python's own order: positional arguments fill the positional parameters left to right, keywords
then fill parameters by name. A `*args` in the call makes every later position unknowable, a
`**kwargs` any parameter not yet bound; a bound method (`self.helper(x)`, `obj.method(x)`) has its
first parameter filled by the object, not by the call.
"""

from __future__ import annotations

import libcst as cst

FunctionNode = cst.FunctionDef | cst.Lambda


def argument(call: cst.Call, position: int | None, keyword: str | None) -> cst.Arg | None:
    """The argument passed at `position` or as `keyword`, if any (for library calls, whose
    signatures optlint knows only as positions and names)."""
    positional = []
    for arg in call.args:
        if arg.star == "*":
            break  # positions after `*args` cannot be told
        if arg.keyword is None and not arg.star:
            positional.append(arg)
    if position is not None and position < len(positional):
        return positional[position]
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg
    return None


def positional_params(function: FunctionNode) -> list[cst.Param]:
    return [*function.params.posonly_params, *function.params.params]


def bind_arguments(function: FunctionNode, call: cst.Call,
                   bound: bool = False) -> list[tuple[cst.Param, cst.BaseExpression]]:
    """(parameter, expression) for each parameter `call` passes, by position or keyword.

    `bound`: the call goes through a bound method, so the first positional parameter (`self`) is
    the object's and the call's arguments start at the second."""
    positional = positional_params(function)
    if bound:
        positional = positional[1:]
    keyword_params = {param.name.value: param for param in (
        *function.params.params, *function.params.kwonly_params)}
    found: list[tuple[cst.Param, cst.BaseExpression]] = []
    position: int | None = 0
    for arg in call.args:
        if arg.star == "*":
            position = None
        elif arg.star == "**":
            continue
        elif arg.keyword is not None:
            param = keyword_params.get(arg.keyword.value)
            if param is not None:
                found.append((param, arg.value))
        elif position is not None:
            if position < len(positional):
                found.append((positional[position], arg.value))
            position += 1
    return found


def argument_for(call: cst.Call, function: FunctionNode, param: str,
                 bound: bool = False) -> cst.BaseExpression | None:
    """The expression `call` passes as `param` of `function`, when it can be told."""
    for target, expr in bind_arguments(function, call, bound):
        if target.name.value == param:
            return expr
    return None
