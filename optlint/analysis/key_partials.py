"""What a `functools.partial` called with more arguments runs: `partial(f, model, policy=p)(key,
x)` calls `f(model, key, x, policy=p)`, so the call's first argument binds `f`'s second
parameter. Used where an argument is followed to the parameter it binds (`key_ignored.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.project_values import nearest_bindings
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL

if TYPE_CHECKING:
    from optlint.analysis.index import Scope
    from optlint.analysis.project_values import ProjectFile


def bound_partial(func: cst.BaseExpression, scope: Scope, file: ProjectFile
                  ) -> tuple[cst.BaseExpression, int, frozenset[str]]:
    """The function `func` runs, how many positional arguments a partial binds before the
    call's own, and the keywords it binds: `func` itself, 0, none, unless `func` is a
    `partial(f, ...)` call or a name bound once, in the nearest scope binding it, to one."""
    made = func
    if isinstance(func, cst.Name):
        bindings = nearest_bindings(func.value, scope)
        if bindings is None or len(bindings) != 1:
            return func, 0, frozenset()
        binding = bindings[0]
        if binding.kind != "assign" or binding.path or binding.value is None:
            return func, 0, frozenset()
        made = binding.value
    if (not isinstance(made, cst.Call) or file.index.imports.qualify(made.func) != FUNCTOOLS_PARTIAL
            or not made.args or made.args[0].keyword is not None
            or any(arg.star for arg in made.args)):
        return func, 0, frozenset()
    positional = [arg for arg in made.args[1:] if arg.keyword is None]
    keywords = frozenset(arg.keyword.value for arg in made.args if arg.keyword is not None)
    return made.args[0].value, len(positional), keywords
