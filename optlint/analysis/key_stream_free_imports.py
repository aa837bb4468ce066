"""Whether the project code a transformed function runs may draw from Haiku's rng stream
(`hk.next_rng_key()`, `hk.dropout`, a call given `rng=` or `dropout_rate=`: `STREAM_USES`).
`transform(f).apply(params, rng, ...)` of a function of the file draws nothing when neither the
file nor the project modules defining what `f` calls (and the modules those import) do: wax's
tests apply `ApplyMask`, `MaskMean`, ... (Haiku modules of its own with constant initializers)
with the key that initialised them, labelled false by running (issue #25: the second consumer
draws nothing). A name `f` calls that is neither the file's, a known library's nor a project
module's, or more modules than `_MOST_FILES`, leave it open.
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_model_streams import STREAM_KEYWORDS, STREAM_USES
from optlint.analysis.project_files import LIBRARIES
from optlint.analysis.walk import nodes_below

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator
    from optlint.context import RuleContext

_BUILTINS = frozenset(dir(builtins))
# Project modules read at most (each is parsed): past this the answer stays open.
_MOST_FILES = 16


class StreamFree:
    """Whether functions of one file that Haiku transforms draw nothing from the rng stream."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self._own: bool | None = None  # nothing in the file itself draws from the stream
        self._libraries_only: bool | None = None  # the file imports no project code

    def draws_nothing(self, function: cst.Lambda | cst.FunctionDef) -> bool:
        ctx = self.ctx
        if self._own is None:
            self._own = not _draws_from_stream(ctx.inference)
        if not self._own:
            return False
        if self._libraries_only is None:
            self._libraries_only = all(full.split(".", 1)[0] in LIBRARIES
                                       for full in ctx.index.imports.aliases.values())
        # Project code imported: what `function` calls of it must draw nothing either.
        return self._libraries_only or runs_no_stream_draw(ctx, function)


def runs_no_stream_draw(ctx: RuleContext, function: cst.Lambda | cst.FunctionDef) -> bool:
    """What `function` calls from other project modules draws nothing from the rng stream, nor
    does what those modules import (the file's own calls are the caller's to check)."""
    project = ctx.inference.project
    here = ctx.inference.path
    if project is None or here is None:
        return False
    called = _called_names(ctx, function)
    if called is None:
        return False
    pending = [(sorted(called), here)]
    seen = {here}
    while pending:
        modules, importer = pending.pop()
        for full in modules:
            if full.split(".", 1)[0] in LIBRARIES or not full.strip("."):
                continue
            # `from pkg.mod import Name`: the module `pkg.mod`, or `pkg.mod.Name` a module itself.
            files = {str(path) for module in (full, full.rpartition(".")[0]) if module
                     for path in project.project_files(module, importer)}
            if not files:
                return False  # another library, which may draw
            for path in sorted(files - seen):
                seen.add(path)
                owner = project.evaluator_for(path)
                if len(seen) > _MOST_FILES or owner is None or _draws_from_stream(owner):
                    return False
                pending.append((sorted(owner.index.imports.aliases.values()), path))
    return True


def _called_names(ctx: RuleContext, function: cst.Lambda | cst.FunctionDef) -> set[str] | None:
    """The qualified names `function` calls, through the file's own functions and classes it
    calls by name; None when it calls a name that is none of these (a parameter, a variable
    holding what another module made). Method calls are on objects it made by such calls."""
    local = {statement.name.value: statement for statement in ctx.module.body
             if isinstance(statement, (cst.FunctionDef, cst.ClassDef))}
    names: set[str] = set()
    pending: list[cst.CSTNode] = [function]
    walked: set[str] = set()
    while pending:
        for node in nodes_below(pending.pop()):
            if not isinstance(node, cst.Call) or not isinstance(node.func, (cst.Name,
                                                                         cst.Attribute)):
                continue
            qualified = ctx.qualify(node.func)
            if qualified is not None:
                names.add(qualified)
            elif isinstance(node.func, cst.Name) and node.func.value not in _BUILTINS:
                defined = local.get(node.func.value)
                if defined is None:
                    return None
                if node.func.value not in walked:
                    walked.add(node.func.value)
                    pending.append(defined)
    return names


def _draws_from_stream(owner: Evaluator) -> bool:
    return any(owner.qualify(site.node.func) in STREAM_USES or any(
        arg.keyword is not None and arg.keyword.value in STREAM_KEYWORDS for arg in site.node.args)
        for site in owner.index.calls)


