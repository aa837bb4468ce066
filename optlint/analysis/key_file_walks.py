"""The walks of a file's functions and of its module body for their own findings (`FileWalks`),
those the gate lets through (`key_walk_gate.WalkGate`): the rule's entry to a file's key flows.

Apart from the gate because it reads the whole analysis of the file (`key_calls.FileKeyCalls`),
which itself asks the gate (`key_foreign_silence.py`): one module holding both made an import
cycle.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis import key_walk_gate
from optlint.analysis.index import FunctionInfo
from optlint.analysis.key_cond_branches import branching
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_library_calls import last_name
from optlint.analysis.key_shown_cells import shown_calls
from optlint.analysis.key_syntax import body_of
from optlint.analysis.key_walk_gate import WalkGate

if TYPE_CHECKING:
    from optlint.analysis.key_calls import FileKeyCalls


class FileWalks:
    """The walks of one file's functions and module body for their own findings: those the
    gate lets through, each its summary's walk where it has one."""

    def __init__(self, analysis: FileKeyCalls) -> None:
        self.analysis = analysis
        self._again: dict[int, KeyFlow] = {}  # walks made again, of functions calling themselves
        # The functions defined in each function of the file, by its id (`_nested_in`).
        self._nested: dict[int, list[FunctionInfo]] | None = None
        self._walk_gate: WalkGate | None = None  # which walks may report anything

    def functions_to_walk(self) -> Iterator[FunctionInfo]:
        """The functions whose walks may report something (the gate, above)."""
        analysis = self.analysis
        return (info for info in analysis.ctx.index.functions.values()
                if isinstance(info.node, cst.FunctionDef) and analysis.worth_walking(info.node)
                and self._gate().may_find(info.scope, info.node, bool(info.returns)))

    def _gate(self) -> WalkGate:
        if self._walk_gate is None:
            analysis = self.analysis
            gate = self._walk_gate = WalkGate(
                analysis.ctx.calls(), analysis.ctx.index.every_scope,
                lambda call: analysis.consumer(call, silent),
                lambda call: analysis.returned_keys(call, silent), analysis.made_key,
                lambda call: branching(analysis.ctx, call))
            helpers, higher_order = analysis.helpers, analysis.higher_order

            def silent(function: cst.FunctionDef) -> bool:
                # Of a function of the file worth walking (else it has no summary), not
                # summarised yet (else its summary is read), calling no function it is given
                # by another name either (`key_callables.closures_called_again`).
                return (key_walk_gate.SILENT_UNSUMMARISED and id(function) not in analysis.foreign.owner_of
                        and id(function) not in analysis.summaries
                        and function.name.value in helpers
                        and function.name.value not in higher_order and gate.silent(function))

            # The walks (summaries among them) read the answers made so far, not asking anew:
            # one asked while a summary is being made could rest on that summary's first round.
            analysis.silent = lambda function: (id(function) not in analysis.summaries
                                                and gate.said_silent(function))
        return self._walk_gate

    def walk(self, info: FunctionInfo) -> KeyFlow:
        """The function's walk for its own findings: its summary's walk, the same statements
        and calls (a summary only notes its parameters besides), unless it calls itself."""
        assert isinstance(info.node, cst.FunctionDef)
        analysis = self.analysis
        recursive = analysis.cycles.recursive
        summary = analysis.summary(info.node)
        if summary is not None and id(info.node) not in recursive:
            return summary
        if id(info.node) not in self._again:
            # Its closures summarised while it was (a scan body calling back into the method
            # being summarised): summarised again, now that what they call is known.
            for nested in (self._nested_in(info.node) if recursive else ()):
                if id(nested.node) in recursive:
                    analysis.summaries.pop(id(nested.node), None)
                    analysis.forget_consumed()  # some may rest on that summary
                    self._gate().forget_silent()
            flow = analysis.new_flow(scope=info.scope)
            flow.run(body_of(info.node), {param.name.value: param.name for param in (
                *info.node.params.posonly_params, *info.node.params.params,
                *info.node.params.kwonly_params)})
            self._again[id(info.node)] = flow
        return self._again[id(info.node)]

    def _nested_in(self, function: cst.FunctionDef) -> list[FunctionInfo]:
        """The functions defined directly in `function` (the file's map of them made once)."""
        if self._nested is None:
            self._nested = {}
            for info in self.analysis.ctx.index.functions.values():
                parent = info.scope.parent
                if parent is not None:
                    self._nested.setdefault(id(parent.node), []).append(info)
        return self._nested.get(id(function), [])

    def walk_module(self) -> KeyFlow | None:
        analysis = self.analysis
        ctx = analysis.ctx
        if not any(site.scope.kind == "module" and (
                id(site.node) in analysis.candidates or last_name(site.node.func) in analysis.helpers)
                for site in ctx.calls()) or not self._gate().may_find(
                    ctx.index.module_scope, ctx.module):
            return None
        flow = analysis.new_flow(scope=ctx.index.module_scope)
        # A notebook is run, not imported: its names do not outlive its last cell. A `.md`
        # file reaches the analysis only as a MyST notebook (`sources.py`), read as one.
        flow.run(ctx.module.body, module=not ctx.filename.endswith((".ipynb", ".md")))
        # A call ending a cell is the cell's output, shown: its result is read, no warm-up.
        flow.discarded -= shown_calls(ctx.module, ctx.filename)
        return flow
