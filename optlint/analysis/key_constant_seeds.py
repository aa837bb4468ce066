"""Keys made from a constant seed where a step runs: a method of a model (an Equinox, Flax or
Haiku module) that draws from `jax.random.key(0)` made in its own body makes the same key on
every call, so every call draws the same numbers (the same patches masked, the same noise)
whatever key or `Rngs` its caller hands it. A constructor (`__init__`, Flax's `setup`) runs
once per model and is left out: a fixed key there is a choice of weights. So is a method that
reads a key parameter of its own: its constant key stands in where none is given (labelled on
the package benchmark: `if key is None: keys = split(key(0), depth)` for layers that then draw
nothing), or bound to a name of its own (a probe for shapes); one made in place in a draw
beside a key parameter is drawn on every call all the same (JaxGCRL caae6e7: `randint(
PRNGKey(0), ...)` in a function given `sample_key`). Besides a
model's methods, a function the file batches or compiles as a step runs many times
(`key_repeated_runs.py`). The draw may be a function of the file given the key, whose summary
says it draws from it (maxtext a319be3: `rng = PRNGKey(1234); random_routing(rng, logits, k)`
in an MoE layer's method), or a library call the library model says draws from a key given in
place (`state.apply_fn(v, x, rngs={"dropout": PRNGKey(0)})`, d2l 8071eea)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

import libcst as cst

from optlint.analysis.index import CallSite, FunctionInfo
from optlint.analysis.key_model_objects import MODEL_BASES
from optlint.analysis.key_model_streams import SEEDED_STREAMS
from optlint.analysis.key_imported_bases import file_bases
from optlint.analysis.key_repeated_runs import in_a_test, repeated_run
from optlint.analysis.key_step_callers import run_by_a_step_loop
from optlint.analysis.key_shape_only import shape_only_key_calls
from optlint.analysis.prng_keys import SAMPLERS, Consumer
from optlint.analysis.project_kinds import method_kinds
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext

_KEY_MAKERS = frozenset({"jax.random.PRNGKey", "jax.random.key"})
_KEYISH = re.compile(r"(key|rng|prng)s?(_?\d+)?$|^(key|rng)_", re.IGNORECASE)
# Methods that run once per model, not once per step.
_BUILDING = frozenset({"__init__", "__post_init__", "setup", "init", "__new__"})
# Callers that build a model or a state once (a fixed key there picks the weights).
_STEP_CALLERS_UNSEEN = ("whether what the function draws on each step reaches a result (a loop "
                        "of steps found up its callers)")
_BUILDER = re.compile(r"^_*(init|setup|create|make|build|new|load|restore)(_|$)", re.IGNORECASE)


@record
class ConstantDraw:
    draw: cst.Call  # the sampler (or `split`) drawing from the constant key; `made` for streams
    made: cst.Call  # `jax.random.key(0)`, `nnx.Rngs(0)`
    where: str  # what runs it on every step, for the message
    # What the analysis could not see, for `--preview`: set where only a loop of steps found up
    # the callers runs the function (whether its draws reach a result each step is not seen:
    # on whole repositories such draws mostly fed a structure, a timing or an overwritten init).
    unseen: str | None = None


def constant_seed_draws(ctx: RuleContext, consumer: Consumer) -> Iterator[ConstantDraw]:
    """Each first draw, in a function run once per step, from a key that function makes out of
    an int literal (`consumer`: what a call of the file consumes, for a helper drawing)."""
    if not any(_seeded_from_literals(ctx, site.node) for site in ctx.calls()):
        return  # every key (or stream) the questions below find is made from int literals
    seen: set[int] = set()
    shapes_only = shape_only_key_calls(ctx)  # traced for shapes: no numbers drawn
    for site in ctx.calls():
        made = (_constant_key(ctx, site) or _constant_stream(ctx, site)
                or _helper_constant_key(ctx, site, consumer)
                or _library_constant_key(ctx, site, consumer))
        if made is None or id(made) in seen or id(made) in shapes_only:
            continue
        info = _function_info(ctx, site)
        if info is None or not isinstance(info.node, cst.FunctionDef):
            continue
        where = _model_method(ctx, info) or repeated_run(ctx, info.node)
        unseen = None
        if where is None:
            where = run_by_a_step_loop(ctx, info.node, lambda node: _builds(ctx, node),
                                       lambda node: _runs_often(ctx, node))
            unseen = _STEP_CALLERS_UNSEEN
        if where is None or (_reads_a_key_parameter(info.node)
                             and _standing_in(ctx, made, info.node)):
            continue
        seen.add(id(made))
        yield ConstantDraw(site.node, made, where, unseen)


def _seeded_from_literals(ctx: RuleContext, call: cst.Call) -> bool:
    """`key(0)` (`_literal_key`), or `nnx.Rngs(0)` (`_constant_stream`)."""
    args = call.args
    if not args or type(args[0].value) is not cst.Integer:  # (exact types: asked of every call)
        return False
    qualified = ctx.qualify(call.func)
    return qualified in _KEY_MAKERS or qualified in SEEDED_STREAMS and all(
        type(arg.value) is cst.Integer and not arg.star for arg in args)


def _constant_key(ctx: RuleContext, site: CallSite) -> cst.Call | None:
    """`site` is a `jax.random` sampler given `key(0)` in place, or a name the function binds
    once, to `key(0)`, and never takes as a parameter: that `key(0)` call."""
    call = site.node
    qualified = ctx.qualify(call.func) or ""
    if not qualified.startswith("jax.random.") or qualified.rsplit(".", 1)[1] not in SAMPLERS:
        return None
    key = call.args[0].value if call.args and call.args[0].keyword is None else next(
        (arg.value for arg in call.args if arg.keyword is not None
         and arg.keyword.value == "key"), None)
    return _made_from_literal(ctx, site, key)


def _made_from_literal(ctx: RuleContext, site: CallSite, key: cst.BaseExpression | None
                       ) -> cst.Call | None:
    """`key` is `key(0)` in place, or a name the function binds once, to `key(0)`, and never
    takes as a parameter: that `key(0)` call."""
    if isinstance(key, cst.Name):
        binding = ctx.binding(key.value, site)
        if (binding is None or binding.kind != "assign" or binding.path
                or binding.scope is not site.scope
                or len(site.scope.bindings.get(key.value, [])) != 1):
            return None
        key = binding.value
    if (isinstance(key, cst.Call) and ctx.qualify(key.func) in _KEY_MAKERS and key.args
            and isinstance(key.args[0].value, cst.Integer)):
        return key
    return None


def _helper_constant_key(ctx: RuleContext, site: CallSite, consumer: Consumer
                         ) -> cst.Call | None:
    """`site` calls a function of the file with a key made from a literal seed (in place or
    bound once in the function), and that function draws from the key (or splits it): the
    `key(0)` call. Asked only where an argument is such a key (a summary costs)."""
    made = {id(arg.value): found for arg in site.node.args if not arg.star
            for found in [_made_from_literal(ctx, site, arg.value)] if found is not None}
    if not made:
        return None
    return next((made[id(use.key)] for use in consumer(site.node)
                 if not use.library and not use.unseen and not use.repeated
                 and use.kind in ("draw", "split") and id(use.key) in made), None)


def _library_constant_key(ctx: RuleContext, site: CallSite, consumer: Consumer
                          ) -> cst.Call | None:
    """`site` is a library call the library model says draws from a key it is given, given a
    key made from a literal seed in place (`state.apply_fn(v, x, rngs={"dropout":
    PRNGKey(0)})`, `hk.dropout(key(0), rate, x)`) or a dict of such keys the function binds
    once (`rngs = {"dropout": PRNGKey(1337)}`, then `apply(v, x, rngs=rngs)`): that `key(0)`
    call. A model's `init` given one picks its weights, once, and is left out."""
    made = _literal_keys_given(ctx, site)
    if not made:
        return None
    return next((made[id(use.key)] for use in consumer(site.node)
                 if use.library and not use.unseen and not use.repeated and use.kind == "draw"
                 and id(use.key) in made and not _WEIGHT_INIT.search(use.how)), None)


# Library calls that initialise a model's weights from the key they are given.
_WEIGHT_INIT = re.compile(r"(^|\.)init(_with_output)?$")


def _literal_keys_given(ctx: RuleContext, site: CallSite) -> dict[int, cst.Call]:
    """The keys made from a literal seed that `site`'s call is given, by the id of what the
    call is given: in place, as the values of a dict given in place (`rngs={"dropout":
    PRNGKey(0)}`), or of a dict display bound once to the name given (`rngs=rngs`)."""
    found: dict[int, cst.Call] = {}
    for arg in site.node.args:
        if arg.star:
            continue
        value = _bound_dict(ctx, arg.value, site) or arg.value
        if _literal_key(ctx, value):
            found[id(arg.value)] = cast(cst.Call, value)
        elif isinstance(value, cst.Dict):
            for element in value.elements:
                if isinstance(element, cst.DictElement) and _literal_key(ctx, element.value):
                    # The library's consumer names the dict's value, or the name given.
                    found[id(element.value)] = found.setdefault(
                        id(arg.value), cast(cst.Call, element.value))
    return found


def _literal_key(ctx: RuleContext, value: cst.BaseExpression) -> bool:
    return (isinstance(value, cst.Call) and bool(value.args)
            and isinstance(value.args[0].value, cst.Integer)
            and ctx.qualify(value.func) in _KEY_MAKERS)


def _bound_dict(ctx: RuleContext, value: cst.BaseExpression, site: CallSite) -> cst.Dict | None:
    """The dict display a name given to the call is bound to, once, in the call's own function
    (`rngs = {"dropout": PRNGKey(1337)}`)."""
    if not isinstance(value, cst.Name):
        return None
    binding = ctx.binding(value.value, site)
    if (binding is None or binding.kind != "assign" or binding.path
            or binding.scope is not site.scope
            or len(site.scope.bindings.get(value.value, [])) != 1
            or not isinstance(binding.value, cst.Dict)):
        return None
    return binding.value


def _constant_stream(ctx: RuleContext, site: CallSite) -> cst.Call | None:
    """`site` makes rng streams from int literals (`nnx.Rngs(0)`, `nnx.Rngs(dropout=1)`)
    that the function uses: given in place to a call, or bound to a name read again."""
    call = site.node
    if (ctx.qualify(call.func) not in SEEDED_STREAMS or not call.args
            or not all(isinstance(arg.value, cst.Integer) and not arg.star for arg in call.args)):
        return None
    parent = ctx.index.parents().get(id(call))
    if isinstance(parent, cst.Arg):
        return call
    if not isinstance(parent, cst.Assign) or len(parent.targets) != 1:
        return None
    target = parent.targets[0].target
    if not isinstance(target, cst.Name) or site.scope.node is None:
        return None
    names = _NameCount(target.value)
    site.scope.node.visit(names)
    return call if names.count > 1 else None


class _NameCount(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0

    def visit_Name(self, node: cst.Name) -> None:
        self.count += node.value == self.name

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)  # `jax.random.key` reads no `key`
        return False


def _reads_a_key_parameter(function: cst.FunctionDef) -> bool:
    """The function reads a parameter named as a key (`key`, `rng`, `rngs`): its constant key
    is then a stand-in where none is given (`if key is None: key = jax.random.key(0)`), not
    the key it draws from on every call."""
    params = function.params
    names = {param.name.value for param in (*params.posonly_params, *params.params,
                                            *params.kwonly_params)
             if _KEYISH.search(param.name.value)}
    for name in names:
        count = _NameCount(name)
        function.body.visit(count)
        if count.count:
            return True
    return False


def _standing_in(ctx: RuleContext, made: cst.Call, function: cst.FunctionDef) -> bool:
    """In a function that reads a key parameter, `made` is a key kept apart on purpose: made
    under a condition (`if key is None: key = key(0)`, `key(0) if key is None else key`, `key
    or key(0)`), a stand-in for a key not given, or bound to a name of its own (`_dummy_rng =
    key(0)`, a probe for shapes). Made in place as a draw's argument, it is a key the draw
    takes where the parameter was at hand (JaxGCRL caae6e7)."""
    parents = ctx.index.parents()
    node = parents.get(id(made))
    if isinstance(node, cst.DictElement):  # `rngs={"dropout": key(0)}`
        node = parents.get(id(parents.get(id(node))))
    if not isinstance(node, cst.Arg):
        return True
    while node is not None and node is not function:
        if isinstance(node, (cst.If, cst.IfExp, cst.BooleanOperation)):  # `key or key(0)`
            return True
        node = parents.get(id(node))
    return False


def _builds(ctx: RuleContext, function: cst.FunctionDef) -> str | None:
    """Why a caller does not run on every step: a test, or a builder (a constructor, `init`)."""
    if in_a_test(ctx, function):
        return "a test"
    name = function.name.value
    return "a builder" if name in _BUILDING or _BUILDER.search(name) else None


def _runs_often(ctx: RuleContext, function: cst.FunctionDef) -> str | None:
    """A caller of this file run many times by what the file shows (a model's method, a
    function it maps or compiles as a step): what runs it."""
    info = ctx.index.functions.get(function)
    return ((_model_method(ctx, info) if info is not None else None)
            or repeated_run(ctx, function))


def _function_info(ctx: RuleContext, site: CallSite) -> FunctionInfo | None:
    scope = site.scope
    return ctx.index.functions.get(scope.node) if scope.kind == "function" else None  # type: ignore[arg-type]


def _model_method(ctx: RuleContext, info: FunctionInfo) -> str | None:
    """`a method of model `Tokenizer``: a method of a module class of the file, run on every
    step (None: not one, or one that builds the model)."""
    owner = info.scope.owner
    node = info.node
    if (owner is None or not isinstance(node, cst.FunctionDef) or node.name.value in _BUILDING
            or method_kinds(node)):
        return None
    if ctx.inference.is_equinox_module(owner) or file_bases(ctx, owner.name) & MODEL_BASES:
        return f"`{node.name.value}`, a method of model `{owner.name}` run on every step"
    return None


