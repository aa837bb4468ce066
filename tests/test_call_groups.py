"""A rule reading `ctx.calls_where(...)` sees the calls a pass over every call would keep, each
once and in source order."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.call_groups import CallGroups
from optlint.analysis.index import CallSite, build_index

TEXT = '''import optax
import optax as ox
from optax import apply_updates, chain

opt = chain(optax.clip(1.0), ox.adam(1e-3))
state = opt.init(params)
updates, state = opt.update(grads, state, opt.init(params).x.update(1))
params = apply_updates(params, updates)
params = ox.apply_updates(params, updates)
optax.init(params)
def step(opt, state, params):
    return opt.update(g, state, params), optax.apply_updates(params, g)
'''


def test_groups_are_a_pass_over_every_call_in_source_order() -> None:
    index = build_index(cst.parse_module(TEXT))
    groups = CallGroups(index.calls, index.imports.qualify)
    questions: list[tuple[tuple[str, ...], set[str] | None]] = [
        ((), None), (("init",), None), (("init", "update"), None), (("update", "init"), None),
        ((), {"optax.apply_updates"}), (("init",), {"optax.apply_updates"}),
        (("init", "missing"), {"optax.init", "optax.chain"}), (("clip",), {"optax.clip"}),
    ]

    def kept(site: CallSite, methods: tuple[str, ...], names: set[str] | None) -> bool:
        func = site.node.func
        return ((isinstance(func, cst.Attribute) and func.attr.value in methods)
                or (names is not None and index.imports.qualify(func) in names))

    for methods, names in questions:
        expected = [site for site in index.calls if kept(site, methods, names)]
        found = groups.where(methods, names.__contains__ if names is not None else None)
        assert [site.node for site in found] == [site.node for site in expected], (methods, names)
    assert len(groups.where(("init", "update"), {"optax.apply_updates"}.__contains__)) == 9
