"""A loop of one object's own methods running, in every step, a method of an object it holds
that draws from a key only the held object's constructor sets (held-out set 8: tombelv/sbmpc
b43d909, whose `SbMPC.compute_control_action` hands the `self.master_key` that only `__init__`
sets to its jitted controller; the example's `Simulation(x_init, system, solver, 600)` keeps the
solver as `self.controller`, and `Simulator.simulate` loops `while self.iter < self.num_iter:
self.step()`, `step` runs `self.update()`, and `update` calls `self.controller.
compute_control_action(...)`: every control step draws the same perturbations). Simulators,
runners and trainers holding a controller, an agent or a sampler are common in object-style JAX
code; `key_unadvanced_callers.py` sees the plain `obj.method(...)` in a loop, this the call
through the holder.

What is proven, in the file calling the method and the files of the holder's project bases:
- a method `m` of the holder's class (or of a project base) calls `self.<attr>.<method>(...)`;
- `self.<attr>` is set only by constructors of the holder's classes, from a constructor
  parameter (followed through `super().__init__(...)`), and the file never sets
  `.<attr>.<key> =` (the caller does not advance the held object's key itself);
- a method of the holder's classes runs `m` in a loop (a `while`, a `for` over `range`, or a
  loop carrying state), directly or through a few `self.<name>()` calls;
- the file binds a name once to the holder's class called with, at that parameter, a name bound
  once to the key's class (resolved to the file being checked), and calls the looping method on
  the holder's name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import ClassInfo, Scope
from optlint.analysis.key_step_loops import carries_state
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator, Project

# How many classes up a holder's bases are followed, and how many `self.<name>()` calls lie
# between the loop and the method calling the held object.
_BASES = 4
_HOPS = 3
_CONSTRUCTORS = frozenset({"__init__", "__post_init__"})

Chain = list[tuple[ClassInfo, "Evaluator"]]


def held_and_stepped(project: Project, other: Evaluator, file: Path, text: str,
                     owner: ClassInfo, method: str, field: str, real_here: Path) -> str | None:
    """Where a holder's loop in `file` runs `method` on one instance of `owner` in every step,
    for the message; None where none is seen."""
    for site in other.index.calls:
        func = site.node.func
        scope = site.scope
        if not (isinstance(func, cst.Attribute) and func.attr.value == method
                and isinstance(func.value, cst.Attribute)
                and isinstance(func.value.value, cst.Name) and scope.owner is not None
                and func.value.value.value == scope.self_name
                and isinstance(scope.node, cst.FunctionDef)):
            continue
        attr = func.value.attr.value
        if re.search(rf"\.{re.escape(attr)}\.{re.escape(field)}\s*=[^=]", text):
            continue  # the holder's file sets the held object's key itself
        chain = _chain(project, other, scope.owner)
        param = _constructor_param(chain, attr)
        if param is None:
            continue
        runner = _runs_repeatedly(chain, scope.node.name.value)
        if runner is None:
            continue
        holder = scope.owner.name
        if _built_and_run(project, other, holder, param, runner, owner, real_here):
            return (f"a loop of `{holder}.{runner}` in {file.name} runs "
                    f"`{scope.node.name.value}`, which calls `self.{attr}.{method}`")
    return None


def _chain(project: Project, evaluator: Evaluator, info: ClassInfo) -> Chain:
    """The class and its project bases, the first base first, a few deep."""
    chain: Chain = [(info, evaluator)]
    while len(chain) < _BASES:
        current, owner = chain[-1]
        if not current.bases:
            break
        base = current.bases[0]
        found: tuple[ClassInfo, Evaluator] | None = None
        if isinstance(base, cst.Name) and base.value in owner.index.classes:
            found = (owner.index.classes[base.value], owner)
        else:
            qualified = owner.qualify(base)
            if qualified is not None:
                found = project.resolve_class(qualified, owner.path, gated=False)
        if found is None or any(found[0] is known for known, _ in chain):
            break
        chain.append(found)
    return chain


def _methods(info: ClassInfo) -> Iterator[cst.FunctionDef]:
    for item in info.node.body.body:
        if isinstance(item, cst.FunctionDef):
            yield item


def _constructor_param(chain: Chain, attr: str) -> tuple[int, str] | None:
    """(position after `self`, name) of the holder's constructor parameter that `self.<attr>`
    is set from, where only constructors set it."""
    for info, _ in chain:
        for binding in info.attributes.get(attr, []):
            node = binding.scope.node if binding.scope is not None else None
            if not isinstance(node, cst.FunctionDef) or node.name.value not in _CONSTRUCTORS:
                return None
    inits = [next((m for m in _methods(info) if m.name.value == "__init__"), None)
             for info, _ in chain]
    return _param_setting([init for init in inits if init is not None], attr)


def _param_setting(inits: list[cst.FunctionDef], attr: str) -> tuple[int, str] | None:
    if not inits:
        return None
    init = inits[0]
    params = [param.name.value for param in init.params.params]
    if not params:
        return None
    self_name, given = params[0], params[1:]
    for node in _walk(init.body):
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(
                node.value, cst.Name) and node.value.value in given:
            target = node.targets[0].target
            if (isinstance(target, cst.Attribute) and target.attr.value == attr
                    and isinstance(target.value, cst.Name) and target.value.value == self_name):
                return given.index(node.value.value), node.value.value
    inner = _param_setting(inits[1:], attr)
    if inner is None:
        return None
    position, name = inner
    for node in _walk(init.body):
        if isinstance(node, cst.Call) and _calls_super_init(node, self_name):
            handed = _argument(node, position, name)
            if isinstance(handed, cst.Name) and handed.value in given:
                return given.index(handed.value), handed.value
    return None


def _calls_super_init(call: cst.Call, self_name: str) -> bool:
    """`super().__init__(...)`, or `Base.__init__(self, ...)` (the arguments then start after
    `self`, which `_argument` is not told: only the `super()` form is taken)."""
    func = call.func
    return (isinstance(func, cst.Attribute) and func.attr.value == "__init__"
            and isinstance(func.value, cst.Call) and isinstance(func.value.func, cst.Name)
            and func.value.func.value == "super")


def _argument(call: cst.Call, position: int, name: str) -> cst.BaseExpression | None:
    positional = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            if positional == position:
                return arg.value
            positional += 1
        elif arg.keyword.value == name:
            return arg.value
    return None


def _runs_repeatedly(chain: Chain, name: str) -> str | None:
    """The method of the holder's classes whose loop runs `name` on every step (through a few
    `self.<method>()` calls), the subclass's definition of a name first."""
    methods: dict[str, cst.FunctionDef] = {}
    for info, _ in chain:
        for method in _methods(info):
            methods.setdefault(method.name.value, method)
    callers = {name}
    for _ in range(_HOPS):
        reaching = set()
        for method_name, method in methods.items():
            if method_name in callers or method_name in _CONSTRUCTORS or not method.params.params:
                continue
            self_name = method.params.params[0].name.value
            for loop in _loops(method.body):
                if _self_calls(loop.body, self_name) & callers and _steps(loop):
                    return method_name
            if _self_calls(method.body, self_name) & callers:
                reaching.add(method_name)
        if not reaching - callers:
            return None
        callers |= reaching
    return None


def _steps(loop: cst.For | cst.While) -> bool:
    """A loop of steps: a `while`, a `for` over `range(...)`, or one carrying state."""
    if isinstance(loop, cst.While):
        return True
    it = loop.iter
    return (isinstance(it, cst.Call) and isinstance(it.func, cst.Name)
            and it.func.value == "range") or carries_state(loop)


def _loops(body: cst.CSTNode) -> Iterator[cst.For | cst.While]:
    for node in _walk(body):
        if isinstance(node, (cst.For, cst.While)):
            yield node


def _self_calls(body: cst.CSTNode, self_name: str) -> set[str]:
    """The names of the methods `body` calls on `self_name` (`self.step()`)."""
    return {node.func.attr.value for node in _walk(body)
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and isinstance(node.func.value, cst.Name) and node.func.value.value == self_name}


def _walk(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node under `root`, not into nested functions, classes or lambdas."""
    pending = [root]
    while pending:
        current = pending.pop()
        yield current
        if current is root or not isinstance(current, (cst.FunctionDef, cst.ClassDef,
                                                       cst.Lambda)):
            pending.extend(child_nodes(current))


def _built_and_run(project: Project, other: Evaluator, holder: str, param: tuple[int, str],
                   runner: str, owner: ClassInfo, real_here: Path) -> bool:
    """A scope of `other` binds a name once to `holder(...)` given, at `param`, a name bound once
    to an instance of `owner`, and calls `runner` on the holder's name."""
    for scope in _scopes(other):
        for name, bindings in scope.bindings.items():
            value = bindings[0].value if len(bindings) == 1 else None
            if not (bindings[0].kind == "assign" and not bindings[0].path
                    and isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
                    and value.func.value == holder):
                continue
            held = _argument(value, *param)
            if (isinstance(held, cst.Name) and _runs_on(other, scope, name, runner)
                    and _instance_of(project, other, scope, held.value, owner, real_here)):
                return True
    return False


def _scopes(other: Evaluator) -> Iterator[Scope]:
    yield other.index.module_scope
    for info in other.index.functions.values():
        yield info.scope


def _runs_on(other: Evaluator, scope: Scope, name: str, runner: str) -> bool:
    return any(site.scope is scope and isinstance(site.node.func, cst.Attribute)
               and site.node.func.attr.value == runner
               and isinstance(site.node.func.value, cst.Name)
               and site.node.func.value.value == name for site in other.index.calls)


def _instance_of(project: Project, other: Evaluator, scope: Scope, name: str,
                 owner: ClassInfo, real_here: Path) -> bool:
    value = one_call_bound(scope, name)
    return value is not None and calls_class(project, other, value, owner, real_here)


def one_call_bound(scope: Scope, name: str) -> cst.Call | None:
    """The call `name` is bound to by its one plain assignment in `scope` (`x = C(...)`)."""
    bindings = scope.bindings.get(name, [])
    if len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].path:
        return None
    value = bindings[0].value
    return value if isinstance(value, cst.Call) else None


def calls_class(project: Project, other: Evaluator, value: cst.Call, owner: ClassInfo,
                real_here: object) -> bool:
    """`value` (in `other`'s file) calls `owner`, the class of the file at `real_here`."""
    qualified = other.qualify(value.func)
    if qualified is None or qualified.rpartition(".")[2] != owner.name:
        return False
    found = project.resolve_class(qualified, other.path, gated=False)
    return (found is not None and found[0].name == owner.name and found[1].path is not None
            and project.real_path(found[1].path) == real_here)
