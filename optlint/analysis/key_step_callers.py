"""Functions a loop of training steps runs, for keys made from a constant seed in their bodies
(`key_constant_seeds.py`): a function a loop calls as its training step, threading its state
through the call (`g_state = generator_step(model, g_state, batch)`), in this file or in
another file of the project, runs on every step, and so does what it calls on its way (a loss
it differentiates, a method of its model), so a key it makes from a literal is the same key
on every step (cyclegan-jax 3f61c04: `rngs = {"dropout":
PRNGKey(1337)}` in `train_generator_forward`, which the jitted `generator_step` runs through
its loss on every step of the training loop in `train.py`: the same dropout masks every step).

Followed up the callers a few calls deep; a path stops at a test, a builder (`init_*`,
`create_*`, a constructor: a key there picks weights, once), a function whose callers cannot
all be seen, and a loop that only reads what the call returns (an evaluation, or samples
drawn from a fixed key on purpose to compare steps: `images = sample(params)`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.evaluator import Invocation
from optlint.analysis.files_naming import files_naming
from optlint.analysis.key_repeated_runs import TEST_FILE
from optlint.analysis.project_values import names_in
from optlint.analysis.values import UNKNOWN, InstanceValue

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator
    from optlint.analysis.index import CallSite
    from optlint.context import RuleContext

# How many calls up from the function making the key a loop is looked for.
_DEPTH = 4
# How many other files naming a function are read for its calls.
_FILES = 8

Runs = Callable[[cst.FunctionDef], "str | None"]


def run_by_a_step_loop(ctx: RuleContext, function: cst.FunctionDef, stops: Runs,
                       often: Runs) -> str | None:
    """What runs `function` on every step of a loop, for the message (`train_generator_forward`,
    run by `generator_step` in the loop at train.py:88); None where no caller shows one.
    `stops`: why a caller does not run every step (a test, a builder); `often`: what else
    makes a caller of this file run many times (a model's method, a compiled step)."""
    evaluator: Evaluator = ctx.inference
    if stops(function) is not None:
        return None
    todo: list[tuple[cst.FunctionDef, Evaluator, list[str]]] = [(function, evaluator, [])]
    seen = {id(function)}
    while todo:
        current, owner, chain = todo.pop(0)
        if len(chain) > _DEPTH:
            continue
        if chain and owner is evaluator and (ran := often(current)) is not None:
            return _described(function, chain, ran)
        invocations = owner.invocations_of(current)
        if invocations is None and owner is evaluator:
            invocations = (_method_calls(ctx, current)
                           + _named_elsewhere(ctx, current))
        if not invocations:
            enclosing = _enclosing_function(owner, current)
            if enclosing is not None and id(enclosing) not in seen:
                # A nested function handed to `value_and_grad` or `lax.cond`: it runs when the
                # function defining it runs.
                seen.add(id(enclosing))
                todo.append((enclosing, owner, [*chain, enclosing.name.value]))
            continue
        for invocation in invocations:
            site_owner = owner.evaluator_for(invocation.path) if invocation.path else owner
            loop = _stepping_loop(site_owner, invocation.site)
            if loop is not None:
                return _described(function, chain,
                                  _place(ctx, site_owner, loop, invocation.site))
            caller = invocation.site.scope.node
            if (isinstance(caller, cst.FunctionDef) and id(caller) not in seen
                    and not _stopped(site_owner, caller, evaluator, stops)):
                seen.add(id(caller))
                todo.append((caller, site_owner, [*chain, caller.name.value]))
    return None


def _method_calls(ctx: RuleContext, method: cst.FunctionDef) -> list[Invocation]:
    """The calls of the file that run `method` of a class of the file through an object
    (`model.forward(p, x)`, `self.forward(x)`) where the evaluator follows none: the object is
    an instance of the class, or is not known and no other class of the file defines a method of
    that name."""
    info = ctx.index.functions.get(method)
    owner = info.scope.owner if info is not None else None
    if owner is None:
        return []
    name = method.name.value
    namesakes = [cls for cls in ctx.index.classes.values() if any(
        isinstance(item, cst.FunctionDef) and item.name.value == name
        for item in cls.node.body.body)]
    found = []
    for site in ctx.calls():
        func = site.node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == name):
            continue
        value = ctx.value(func.value, site)
        if (isinstance(value, InstanceValue) and value.info is owner) or (
                value is UNKNOWN and namesakes == [owner]):
            found.append(Invocation(ctx.inference.path, site, True))
    return found


def _named_elsewhere(ctx: RuleContext, function: cst.FunctionDef) -> list[Invocation]:
    """The calls by its name (`generator_step(model, g_state, ...)`, `gan.generator_step(...)`)
    of module-level `function` in the few other project files that import it, where the
    evaluator cannot see them all (one loop among them is enough here)."""
    project = ctx.inference.project
    path = ctx.inference.path
    info = ctx.index.functions.get(function)
    if (project is None or path is None or info is None
            or info.scope.parent is not ctx.index.module_scope):
        return []
    name = function.name.value
    named = files_naming(project, function, path)
    if named is None:
        return []
    texts, naming = named
    found: list[Invocation] = []
    for file in naming[:_FILES]:
        owner = project.evaluator_for(str(file))
        if owner is None or name not in owner.index.imports.aliases and f".{name}" not in \
                texts[file]:
            continue
        for site in owner.index.calls:
            func = site.node.func
            if (isinstance(func, cst.Name) and func.value == name) or (
                    isinstance(func, cst.Attribute) and func.attr.value == name):
                found.append(Invocation(str(file), site, False))
    return found


def _described(function: cst.FunctionDef, chain: list[str], ran: str) -> str:
    name = function.name.value
    through = "".join(f", called by `{caller}`" for caller in chain)
    return f"`{name}`{through}, run on every step by {ran}"


def _stopped(owner: Evaluator, caller: cst.FunctionDef, evaluator: Evaluator,
             stops: Runs) -> bool:
    """A caller that runs once, or on purpose with one key: a test, a builder (for a caller in
    another file, told by its name and its file's)."""
    if owner is evaluator:
        return stops(caller) is not None
    filename = (owner.path or "").replace("\\", "/").rsplit("/", 1)[-1]
    return (caller.name.value.startswith("test") or bool(TEST_FILE.search(filename))
            or stops(caller) is not None)


def _enclosing_function(owner: Evaluator, function: cst.FunctionDef) -> cst.FunctionDef | None:
    info = owner.index.functions.get(function)
    parent = info.scope.parent if info is not None else None
    node = parent.node if parent is not None and parent.kind == "function" else None
    return node if isinstance(node, cst.FunctionDef) else None


def _stepping_loop(owner: Evaluator, site: CallSite) -> cst.For | cst.While | None:
    """The loop of the call's own function that runs the call as its training step: the body
    threads a name through the call (`state = step(state, batch)`). None: the call is in no
    loop, or in one that only reads what it returns (an evaluation, samples drawn from a fixed
    key on purpose to compare steps)."""
    parents = owner.index.parents()
    node: cst.CSTNode | None = site.node
    child: cst.CSTNode = site.node
    statement: cst.CSTNode | None = None
    while node is not None and node is not site.scope.node:
        if statement is None and isinstance(node, (cst.SimpleStatementLine,
                                                   cst.BaseCompoundStatement)):
            statement = node
            if not _threads(statement, site.node):
                return None
        if isinstance(node, (cst.For, cst.While)) and child is node.body:
            return node
        if isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            return None
        child, node = node, parents.get(id(node))
    return None


def _threads(statement: cst.CSTNode | None, call: cst.Call) -> bool:
    """`statement` assigns the call's result to a name the call is given (`loss, state =
    step(state, batch)`): a step of a loop carrying its state through the call."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    small = statement.body[0]
    if not isinstance(small, cst.Assign) or small.value is not call:
        return False
    assigned = {name.value for target in small.targets for name in names_in(target.target)}
    given = {arg.value.value for arg in call.args if isinstance(arg.value, cst.Name)}
    return bool(assigned & given)


def _place(ctx: RuleContext, owner: Evaluator, loop: cst.CSTNode, site: CallSite) -> str:
    """`the loop at line 88`, or in another file `a loop of `train` in train.py`."""
    if owner is ctx.inference:
        return f"the loop at line {ctx.positions()[loop].start.line}"
    caller = site.scope.node
    name = f" of `{caller.name.value}`" if isinstance(caller, cst.FunctionDef) else ""
    return f"a loop{name} in {(owner.path or '').replace(chr(92), '/').rsplit('/', 1)[-1]}"
