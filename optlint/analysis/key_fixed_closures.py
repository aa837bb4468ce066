"""Keys a returned closure makes from a seed fixed when it was made: a factory (`Dropout(rate,
seed=0)`) returns a function (`apply_fun`) that makes its key from the factory's `seed` and
draws from it. The factory's caller runs the returned function again and again (a layer's apply
on every step), and every run makes the same key and draws the same numbers (the same dropout
mask). So does a returned function that replaces its own key argument with a key made from a
literal seed before reading it (`def train(rng): rng = jax.random.key(0)`, returned by
`make_train` and run once per seed): whatever key it is given, every run draws the same."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_syntax import small_statements
from optlint.analysis.prng_keys import SAMPLERS
from optlint.analysis.project_values import names_in
from optlint.analysis.walk import child_nodes
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext

_KEY_MAKERS = ("jax.random.PRNGKey", "jax.random.key")


@record
class FixedClosureKey:
    made: cst.Call  # `random.PRNGKey(seed)` in the returned function
    draw: cst.Call  # the draw from it
    closure: str  # the returned function
    factory: str  # the function returning it
    seed: str  # the factory's parameter the key is made from
    replaced: str = ""  # or the closure's own parameter the literal-seed key replaces


def fixed_closure_keys(ctx: RuleContext) -> Iterator[FixedClosureKey]:
    for info in ctx.index.functions.values():
        closure = info.node
        parent = info.scope.parent
        if (not isinstance(closure, cst.FunctionDef) or parent is None
                or not isinstance(parent.node, cst.FunctionDef)
                or not _returns(parent.node, closure.name.value)):
            continue
        factory = parent.node
        seeds = {param.name.value for param in (
            *factory.params.posonly_params, *factory.params.params,
            *factory.params.kwonly_params)}
        own = {param.name.value for param in (
            *closure.params.posonly_params, *closure.params.params,
            *closure.params.kwonly_params)}
        made: dict[str, tuple[cst.Call, str]] = {}  # key name -> (its making, the seed)
        for statement in small_statements(closure):
            if (isinstance(statement, cst.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0].target, cst.Name)
                    and isinstance(statement.value, cst.Call)
                    and ctx.qualify(statement.value.func) in _KEY_MAKERS
                    and statement.value.args
                    and isinstance(statement.value.args[0].value, cst.Name)):
                seed = statement.value.args[0].value.value
                if seed in seeds and seed not in own:
                    made[statement.targets[0].target.value] = (statement.value, seed)
        for call in _calls(closure.body):
            key = _sampled(ctx, call)
            if key is not None and key in made:
                making, seed = made.pop(key)
                yield FixedClosureKey(making, call, closure.name.value, factory.name.value, seed)
        for name, making, call in _replaced_arguments(ctx, closure, own):
            seed = cst.ensure_type(making.args[0].value, cst.Integer).value
            yield FixedClosureKey(making, call, closure.name.value, factory.name.value, seed,
                                  replaced=name)


def _sampled(ctx: RuleContext, call: cst.Call) -> str | None:
    """The name of the key a `jax.random` sampler (or `split`) is given first, if any."""
    qualified = ctx.qualify(call.func) or ""
    key = call.args[0].value if call.args else None
    if (qualified.startswith("jax.random.") and qualified.rsplit(".", 1)[1] in SAMPLERS
            and isinstance(key, cst.Name)):
        return key.value
    return None


def _replaced_arguments(ctx: RuleContext, closure: cst.FunctionDef, own: set[str]
                        ) -> Iterator[tuple[str, cst.Call, cst.Call]]:
    """Each parameter of `closure` whose first mention in its body binds it to a key made
    from an int literal (`rng = jax.random.key(0)`), with that making and the first
    `jax.random` call drawing from the name before anything binds it again."""
    body = closure.body.body if isinstance(closure.body, cst.IndentedBlock) else ()
    for name in sorted(own):
        at = next((i for i, line in enumerate(body)
                   if any(isinstance(node, cst.Name) and node.value == name
                          for node in names_in(line))), None)
        making = _literal_key(ctx, body[at], name) if at is not None else None
        if making is None or at is None:
            continue
        for line in body[at + 1:]:
            draw = next((call for call in _calls(line) if _sampled(ctx, call) == name), None)
            if draw is not None:
                yield name, making, draw
                break
            if any(isinstance(node, cst.Name) and node.value == name and _bound(line, node)
                   for node in names_in(line)):
                break


def _literal_key(ctx: RuleContext, line: cst.BaseStatement, name: str) -> cst.Call | None:
    """`line` is `name = jax.random.key(0)` (or `PRNGKey`, from an int literal): that call."""
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    small = line.body[0]
    if (isinstance(small, cst.Assign) and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)
            and small.targets[0].target.value == name and isinstance(small.value, cst.Call)
            and ctx.qualify(small.value.func) in _KEY_MAKERS and small.value.args
            and isinstance(small.value.args[0].value, cst.Integer)):
        return small.value
    return None


def _bound(line: cst.CSTNode, name: cst.Name) -> bool:
    """`name` is (part of) an assignment target in `line`, or anything but a plain read there
    (a nested function's parameter, a loop target)."""
    return any(any(found is name for found in names_in(node)) for node in _targets(line))


def _targets(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    if isinstance(node, cst.Assign):
        yield from (target.target for target in node.targets)
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor)):
        yield node.target
    elif isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        yield node  # a name mentioned there is not a read of this one
        return
    for child in child_nodes(node):
        yield from _targets(child)


def _returns(factory: cst.FunctionDef, name: str) -> bool:
    """`factory` returns the function `name` (alone, or in a returned tuple)."""
    for statement in small_statements(factory):
        if isinstance(statement, cst.Return) and statement.value is not None:
            value = statement.value
            items = ([element.value for element in value.elements]
                     if isinstance(value, cst.Tuple) else [value])
            if any(isinstance(item, cst.Name) and item.value == name for item in items):
                return True
    return False


def _calls(node: cst.CSTNode) -> Iterator[cst.Call]:
    """The calls in `node`, in order, not those of nested functions or lambdas."""
    if isinstance(node, cst.Call):
        yield node
    for child in child_nodes(node):
        if not isinstance(child, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            yield from _calls(child)
