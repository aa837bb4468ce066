"""A file's calls grouped by what a rule can tell of them without inference: the method a call
names (`opt.init(...)` under "init") and the qualified name the import table gives its callee
(`optax.apply_updates(...)`). Most rules look for a few such calls; grouped once per file, they
need no pass over every call each (on levanter, 17,853 calls, and a dozen rules asked of each).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import libcst as cst

from optlint.analysis.index import CallSite


class CallGroups:
    def __init__(self, calls: Iterable[CallSite],
                 qualify: Callable[[cst.BaseExpression], str | None]) -> None:
        self._by_method: dict[str, list[CallSite]] = {}
        self._by_name: dict[str, list[CallSite]] = {}
        for site in calls:
            func = site.node.func
            if isinstance(func, cst.Attribute):
                self._by_method.setdefault(func.attr.value, []).append(site)
            name = qualify(func)
            if name is not None:
                self._by_name.setdefault(name, []).append(site)

    def where(self, methods: Iterable[str] = (),
              named: Callable[[str], bool] | None = None) -> list[CallSite]:
        """The calls `x.<method>(...)` of one of `methods`, and those whose callee's qualified
        name `named` accepts, each once, in source order."""
        groups = [self._by_method[method] for method in methods if method in self._by_method]
        if named is not None:
            groups.extend(sites for name, sites in self._by_name.items() if named(name))
        if len(groups) == 1:
            return groups[0]
        # A site's order is the index's count at the call, one number per call of the file.
        merged = {site.order: site for group in groups for site in group}
        return [merged[order] for order in sorted(merged)]
