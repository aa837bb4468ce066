"""OPT020's fix: split the key before its first consumption, which then takes the new key."""

from __future__ import annotations

import re

import libcst as cst

from optlint.analysis.key_calls import FileKeyCalls
from optlint.analysis.library_names import JAX_RANDOM
from optlint.analysis.prng_keys import Reuse
from optlint.context import RuleContext
from optlint.edits import source_lines
from optlint.rules.base import FixPlan


def split_fix(ctx: RuleContext, reuse: Reuse, analysis: FileKeyCalls) -> FixPlan | None:
    """`key, subkey = jax.random.split(key)` before the first consumption, which then takes
    `subkey`: only for two plain statements of one block, outside loops."""
    statement = reuse.first_statement
    key = reuse.first.key
    if (statement is None or not isinstance(key, cst.Name)
            or not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1):
        return None
    if any(arg.star == "**" and arg.value is key for arg in reuse.first.call.args):
        return None  # `f(**kwargs)`: the mapping holds the key (`key_star_arguments.py`)
    site = ctx.site_of(reuse.first.call)
    if site is not None and site.scope.kind == "function" and key.value not in site.scope.bindings:
        return None  # a key of an enclosing scope: assigning it would make it local (unbound)
    small = statement.body[0]
    start = ctx.positions()[small].start
    # The parser's lines (a form feed or U+2028 does not end a line, `str.splitlines` says it
    # does), and the file's own line ending for the inserted line.
    code = analysis.module_code()
    line = source_lines(code)[start.line - 1]
    indent = line[:start.column]
    if indent.strip():
        return None
    fresh = _fresh_name(code, key.value)
    replaced = small.deep_replace(key, cst.Name(fresh))
    assert isinstance(replaced, cst.BaseSmallStatement)
    random_module, imports = _random_module(ctx)
    code = (f"{key.value}, {fresh} = {random_module}.split({key.value})"
            f"{ctx.module.default_newline}"
            f"{indent}{ctx.module.code_for_node(replaced)}")
    return FixPlan("unsafe", f"Split `{key.value}` before its first use", [(small, code)], imports)


def _fresh_name(text: str, key: str) -> str:
    for candidate in ("subkey", f"{key}_sub", *(f"subkey{n}" for n in range(1, 100))):
        if not re.search(rf"\b{re.escape(candidate)}\b", text):
            return candidate
    return f"{key}_subkey_unused"


def _random_module(ctx: RuleContext) -> tuple[str, list[tuple[str, str]]]:
    """How this file names `jax.random`, and the import a fix needs for it."""
    direct = ctx.index.imports.local_alias_for(JAX_RANDOM)
    if direct is not None:
        return direct, []
    jax = ctx.import_alias("jax", "jax")
    return f"{jax}.random", [("jax", jax)]
