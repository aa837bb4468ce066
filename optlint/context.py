"""What a rule is given: the parsed file, its index, value inference and the library versions."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import field
from typing import Any, TypeVar

import libcst as cst
from libcst.metadata import CodeRange

from optlint.analysis.call_groups import CallGroups
from optlint.analysis.index import Binding, CallSite, FileIndex
from optlint.analysis.evaluator import Evaluator
from optlint.analysis.values import TransformedFunction, Value
from optlint.positions import PositionsOnDemand
from optlint.records import record
from optlint.versions import LibraryVersions


_Shared = TypeVar("_Shared")


@record(frozen=False)
class RuleContext:
    module: cst.Module
    index: FileIndex
    inference: Evaluator
    versions: LibraryVersions
    filename: str
    _positions: Mapping[cst.CSTNode, CodeRange] | None = field(default=None, init=False,
                                                               repr=False)
    # id of each call node -> its site, built when a rule first asks (rules ask per finding).
    _sites: dict[int, CallSite] | None = field(default=None, init=False, repr=False)
    # What several rules derive alike from the file (`shared`), by the name of what it is.
    _shared: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    # The text `module` was parsed from, where the caller has it (`module.code` again, without
    # generating it from the tree).
    source: str | None = None
    # False where the caller drops every finding resting on what is unseen (`unproven`: the
    # engine without `--preview`): a rule need not word them (line numbers cost positions).
    wants_unproven: bool = True

    def shared(self, name: str, compute: Callable[[], _Shared]) -> _Shared:
        """`compute()`, worked out once per file for every rule that asks by `name`: a pass
        over the file's calls that several rules begin with is made once."""
        if name not in self._shared:
            self._shared[name] = compute()
        found: _Shared = self._shared[name]
        return found

    def positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        """Every node's range, each worked out when a finding or a fix first asks for it, from
        the statement that holds it (`PositionsOnDemand`): a file pays for the few nodes it
        reports, not for a pass over its whole tree."""
        if self._positions is None:
            self._positions = PositionsOnDemand(self.module, self.source, self.index.parents)
        return self._positions

    def calls(self) -> Iterator[CallSite]:
        return iter(self.index.calls)

    def calls_where(self, methods: tuple[str, ...] = (),
                    named: Callable[[str], bool] | None = None) -> list[CallSite]:
        """The calls `x.<method>(...)` of one of `methods`, and those whose callee the import
        table names as `named` accepts (`qualify`), in source order: what a rule looking for
        such calls reads instead of every call (`CallGroups`, built once per file)."""
        groups = self.shared("call_groups", lambda: CallGroups(self.index.calls, self.qualify))
        return groups.where(methods, named)

    def callees(self) -> list[tuple[CallSite, Value]]:
        """Every call of the file with the value of what it calls, in source order: worked out
        once per file for the rules that look for calls of some kind of value."""
        return self.shared("callees", lambda: [(site, self.value(site.node.func, site))
                                               for site in self.index.calls])

    def method_calls(self, method: str) -> Iterator[CallSite]:
        """`x.method(...)` calls whose arguments can be read: none is `*args` / `**kwargs`."""
        for site in self.calls_where((method,)):
            if not any(arg.star for arg in site.node.args):
                yield site

    def method_invocations(self, method: str) -> Iterator[tuple[CallSite, Value]]:
        """Calls that run `x.method`, with the value of `x`: `x.method(...)`, and calls of it
        through a JAX transformation (`jax.jit(opt.update)(...)`, or `self.update_fn(...)`
        after `self.update_fn = jax.jit(self.opt.update)`). Arguments readable as above."""
        transformed = self.shared("transformed_callees", lambda: {
            site.order: (site, callee) for site, callee in self.callees()
            if isinstance(callee, TransformedFunction) and callee.call.args})
        named = {site.order: site for site in self.calls_where((method,))}
        for order in sorted(named.keys() | transformed.keys()):  # source order
            site, callee = transformed.get(order) or (named[order], None)
            if any(arg.star for arg in site.node.args):
                continue
            func = site.node.func
            # What the callee holds comes first: `self.update(...)` after `self.update =
            # jax.jit(self.solver.update)` runs the solver's `update`, not the object's.
            if isinstance(callee, TransformedFunction):
                wrapped = callee.call.args[0].value
                made = self.site_of(callee.call)
                if (made is not None and isinstance(wrapped, cst.Attribute)
                        and wrapped.attr.value == method):
                    yield site, self.value(wrapped.value, made)
                    continue
            if isinstance(func, cst.Attribute) and func.attr.value == method:
                yield site, self.value(func.value, site)

    def value(self, expr: cst.BaseExpression, site: CallSite) -> Value:
        return self.inference.value_of(expr, site.scope, site.order)

    def qualify(self, expr: cst.BaseExpression) -> str | None:
        # The file's import table (`inference.qualify` reads the same one), asked directly:
        # every rule asks of every call.
        return self.index.imports.qualify(expr)

    def import_alias(self, module: str, default: str) -> str:
        """The name this file uses for `module`, or `default` when a fix must import it."""
        return self.index.imports.local_alias_for(module) or default

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def binding(self, name: str, site: CallSite) -> Binding | None:
        """The binding `name` refers to at `site` (None: a global, builtin or import)."""
        return self.inference.lookup(name, site.scope, site.order)

    def site_of(self, call: cst.Call) -> CallSite | None:
        """The call site of `call` when it is a call of this file."""
        if self._sites is None:
            self._sites = {}
            for site in self.index.calls:
                self._sites.setdefault(id(site.node), site)  # the first, as a scan finds it
        found = self._sites.get(id(call))
        return found if found is not None and found.node is call else None
