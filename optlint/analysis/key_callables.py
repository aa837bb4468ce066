"""Keys consumed by calling a callable that a name, a parameter's default or a field holds:
`w_init(rng, shape)` with `w_init=jax.nn.initializers.normal()`, `self.kernel_init(rng, shape)`
with the field's default `lecun_normal()`, `draw(rng, shape)` with `draw = jax.random.normal`,
or `init(rng, shape)` with `init = gaussian()`, a function of the file that returns a nested
function drawing from its key. Only what the file shows is followed: a callable given by a
caller (no default) is not, and an initializer that draws nothing (`zeros`, `constant(0.1)`)
consumes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.enclosing_self import self_owner
from optlint.analysis.index import LATER, CallSite, Scope
from optlint.analysis.key_consumers import INITIALIZER_MODULES, NON_DRAWING_INITIALIZERS
from optlint.analysis.key_model_loops import LOOP_BODIES
from optlint.analysis.key_transforms import aliased_qualify, loop_body
from optlint.analysis.prng_keys import SAMPLERS, Consumption, key_argument

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView
    from optlint.analysis.key_flow import KeyFlow

# How many names, defaults and fields are followed to the callable's source.
_DEPTH = 3


class HeldCallables:
    """The callables held by names and fields of one file (`calls`), and what calling them
    consumes."""

    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx
        self._known: dict[int, list[Consumption]] = {}  # by call: walks meet a call repeatedly
        self._stepped: dict[int, set[str]] = {}  # by function: `_stepped_params`
        # The file's call sites by the id of their scope's node, grouped once: a scan of every
        # site per function grew with the square of the file.
        self._sites_in: dict[int, list[CallSite]] | None = None

    def consumptions(self, call: cst.Call, site: CallSite) -> list[Consumption]:
        known = self._known.get(id(call))
        if known is None:
            known = self._known[id(call)] = self._consumptions(call, site)
        return known

    def _consumptions(self, call: cst.Call, site: CallSite) -> list[Consumption]:
        sources = self._sources(call.func, site, _DEPTH)
        if not sources:
            return []
        how = self.calls.callee(call)
        positions = {self._key_position(expr) for expr, _ in sources}
        if len(positions) == 1 and None not in positions:
            # Every value the callable may hold is an initializer or sampler drawing from the
            # key at one place (`init(key, shape)`; trax's `init(shape, rng)`).
            (position,) = positions
            key = key_argument(call, position, "key" if position == 0 else "rng")
            return [] if key is None else [Consumption(call, key, how)]
        if len(sources) != 1:
            return []
        expr, scope = sources[0]
        made = self._made_function(expr, CallSite(site.node, scope, LATER))
        flow = self.calls.summary(made) if made is not None else None
        if made is None or flow is None:
            return []
        return [Consumption(call, given, how, library=False,
                            unseen=flow.param_uses[param.name.value].unseen)
                for param, given in bind_arguments(made, call, False)
                if param.name.value in flow.consumed_params]

    def _key_position(self, expr: cst.BaseExpression) -> int | None:
        """Where the callable `expr` makes takes its key, when it is a library initializer
        or sampler that draws from it (None: not one)."""
        qualified = self.ctx.qualify(expr.func if isinstance(expr, cst.Call) else expr) or ""
        module, _, name = qualified.rpartition(".")
        if isinstance(expr, cst.Call) and module in INITIALIZER_MODULES:
            return None if name in NON_DRAWING_INITIALIZERS else INITIALIZER_MODULES[module]
        if self._random_function(expr) or (not isinstance(expr, cst.Call)
                                           and module == "jax.random" and name in SAMPLERS):
            return 0
        return None

    def closures_called_again(self, call: cst.Call, function: cst.FunctionDef, bound: bool,
                              flow: KeyFlow) -> list[Consumption]:
        """`two_steps(make_actor(w, key), obs)` where `two_steps` calls its parameter twice
        and `make_actor` returns a function drawing from the key it closes over: both calls
        draw from that one key."""
        site = self.calls.sites.get(id(call))
        if site is None:
            return []
        uses = []
        stepped = None
        for param, given in bind_arguments(function, call, bound):
            if len(flow.param_calls.get(param.name.value, ())) < 2:
                if stepped is None:
                    stepped = self._stepped_params(function)
                if param.name.value not in stepped:
                    continue
            closure = self._closure_given(given, site)
            summary = self.calls.summary(closure) if closure is not None else None
            if summary is None:
                continue
            for inner in summary.free_consumed().values():
                if inner.repeated or inner.kind == "fold":
                    continue
                draw = inner.closed or inner
                uses.append(Consumption(draw.call, draw.key, self.calls.callee(draw.call),
                                        library=False, repeated=True, repeated_by=call,
                                        unseen=inner.unseen,
                                        over=f"calls of `{param.name.value}` in "
                                             f"`{function.name.value}`"))
        return uses

    def _stepped_params(self, function: cst.FunctionDef) -> set[str]:
        """The parameters of `function` that the body of a `jax.lax` loop it runs calls
        (`scan(lambda c, x: f(x, c), init, xs)`, or a nested `def` given to `scan`): each
        step calls them again."""
        known = self._stepped.get(id(function))
        if known is None:
            known = self._stepped[id(function)] = self._stepped_uncached(function)
        return known

    def _stepped_uncached(self, function: cst.FunctionDef) -> set[str]:
        info = self.ctx.index.functions.get(function)
        if info is None:
            return set()
        params = {param.name.value for param in (
            *function.params.posonly_params, *function.params.params,
            *function.params.kwonly_params)}
        bodies: set[int] = set()
        for site in self._sites_by_scope().get(id(function), ()):
            loop = LOOP_BODIES.get(aliased_qualify(self.ctx, site.node.func, site) or "")
            arg = loop_body(loop, site.node) if loop else None
            if arg is None:
                continue
            if isinstance(arg.value, cst.Lambda):
                bodies.add(id(arg.value))
            elif isinstance(arg.value, cst.Name):
                # Any `def` of that name (`body = remat(body)` may rebind it).
                bodies.update(id(binding.node)
                              for binding in site.scope.bindings.get(arg.value.value, [])
                              if binding.kind == "def")
        by_scope = self._sites_by_scope()
        return {site.node.func.value for body in bodies for site in by_scope.get(body, ())
                if isinstance(site.node.func, cst.Name)
                and site.node.func.value in params
                and site.node.func.value not in site.scope.bindings}

    def _sites_by_scope(self) -> dict[int, list[CallSite]]:
        if self._sites_in is None:
            self._sites_in = {}
            for site in self.calls.sites.values():
                self._sites_in.setdefault(id(site.scope.node), []).append(site)
        return self._sites_in

    def _closure_given(self, given: cst.BaseExpression, site: CallSite) -> cst.FunctionDef | None:
        """The function a factory of the file returned, given directly or through a name;
        or a function nested in the caller, given by its name (`scan_steps(body, xs)`)."""
        if isinstance(given, cst.Name):
            binding = self.ctx.binding(given.value, site)
            if (binding is not None and binding.kind == "def"
                    and isinstance(binding.node, cst.FunctionDef)
                    and self.calls.nested(binding.node)):
                return binding.node
            if (binding is None or binding.kind != "assign" or binding.path
                    or binding.value is None or binding.scope is None):
                return None
            return self._made_function(binding.value, CallSite(site.node, binding.scope, LATER))
        return self._made_function(given, site)

    def _random_function(self, expr: cst.BaseExpression) -> bool:
        """`getattr(jax.random, name)`: a function of `jax.random` chosen by name (a sampler;
        a key is the first argument of every one of them)."""
        return (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name)
                and expr.func.value == "getattr" and len(expr.args) == 2
                and self.ctx.qualify(expr.args[0].value) == "jax.random")

    def _sources(self, func: cst.BaseExpression, site: CallSite, depth: int
                 ) -> list[tuple[cst.BaseExpression, Scope]] | None:
        """The expressions that may have made the callable `func` names (a default, an
        assignment, each assignment of an attribute; a `None` left out: it is never called),
        with the scope each is read in; None when one of them cannot be told."""
        if depth == 0:
            return None
        found: list[tuple[cst.BaseExpression, Scope]] = []
        if isinstance(func, cst.Name):
            binding = self.ctx.binding(func.value, site)
            if binding is None or binding.scope is None:
                return None
            if (binding.kind == "param" and isinstance(binding.node, cst.Param)
                    and binding.node.default is not None and binding.scope.parent is not None):
                found.append((binding.node.default, binding.scope.parent))
            elif binding.kind == "assign" and not binding.path and binding.value is not None:
                found.append((binding.value, binding.scope))
            else:
                return None
        elif (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
              and self_owner(site.scope, func.value.value) is not None):
            owner = self_owner(site.scope, func.value.value)
            assert owner is not None
            field = owner.fields.get(func.attr.value)
            assigned = owner.attributes.get(func.attr.value, [])
            if field is not None and field.default is not None and not assigned:
                found.append((field.default, owner.scope))
            elif field is None and assigned and all(
                    binding.value is not None and binding.scope is not None and not binding.path
                    for binding in assigned):
                found += [(binding.value, binding.scope) for binding in assigned
                          if binding.value is not None and binding.scope is not None]
            else:
                return None
        else:
            return None
        sources: list[tuple[cst.BaseExpression, Scope]] = []
        for expr, scope in found:
            if isinstance(expr, cst.Name) and expr.value == "None":
                continue
            if isinstance(expr, cst.Name):  # `kernel_init = default_init`: one step further
                further = self._sources(expr, CallSite(site.node, scope, LATER), depth - 1)
                if further is None:
                    return None
                sources += further
            else:
                sources.append((expr, scope))
        return sources

    def _made_function(self, expr: cst.BaseExpression, site: CallSite
                       ) -> cst.FunctionDef | None:
        """The nested function a factory of the file returns (`gaussian()` returning `init`)."""
        if not isinstance(expr, cst.Call) or not isinstance(expr.func, cst.Name):
            return None
        binding = self.ctx.binding(expr.func.value, site)
        if binding is None or binding.kind != "def" or not isinstance(binding.node,
                                                                       cst.FunctionDef):
            return None
        info = self.ctx.index.functions.get(binding.node)
        if info is None:
            return None
        made = [self._nested_def(returned, info.scope) for returned in info.returns]
        return made[0] if len(made) == 1 else None

    def _nested_def(self, returned: cst.BaseExpression, scope: Scope) -> cst.FunctionDef | None:
        if not isinstance(returned, cst.Name):
            return None
        bindings = scope.bindings.get(returned.value, [])
        if len(bindings) == 1 and bindings[0].kind == "def" and isinstance(
                bindings[0].node, cst.FunctionDef):
            return bindings[0].node
        return None
