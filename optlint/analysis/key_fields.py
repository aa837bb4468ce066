"""Keys an object holds, consumed by its methods: `loader.epoch()` where `epoch` draws from
`self.key`, which only `__init__` sets, consumes `loader.key`; two such calls on one object (or
one in a loop) draw the same numbers, like two draws from one key."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.index import AttributeSite, Binding, ClassInfo, FileIndex
from optlint.analysis.key_record import KeyRecorder
from optlint.analysis.key_reset_fields import setters_besides_construction
from optlint.analysis.key_syntax import constructs, replaced_from
from optlint.analysis.prng_keys import FOLDED_WITH, Consumption, folded_name
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL
from optlint.analysis.project_kinds import method_kinds
from optlint.analysis.walk import child_nodes, walk

if TYPE_CHECKING:
    from optlint.context import RuleContext


def held_key_consumptions(index: FileIndex, call: cst.Call, method: cst.FunctionDef,
                          flow: KeyRecorder, how: str) -> list[Consumption]:
    """What `receiver.method(...)` consumes of the keys `receiver` holds, for a method of a
    class of the file that consumes `self.<field>` as it is, a field only its constructor
    sets."""
    func = call.func
    info = index.functions.get(method)
    if (info is None or info.scope.owner is None or info.scope.self_name is None
            or not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name)
            or func.attr.value != method.name.value
            or method.name.value in ("__init__", "__post_init__")):
        return []
    uses = []
    for name, use in flow.attribute_uses.items():
        name, marker, data = name.partition(FOLDED_WITH)
        base, _, field = name.partition(".")
        if (base != info.scope.self_name or use.unseen or use.repeated
                or use.kind not in ("draw", "split")):
            continue
        if "." in field:
            # `self.config.loop.rng_seed`: held by what the constructor stores, when nothing
            # in the file assigns to the path's inner attributes.
            if marker or not nested_unassigned(index, info.scope.owner, field):
                continue
            setters: tuple[str, ...] | None = ()
        else:
            # Set when built, or also by methods only the object's users run
            # (`key_reset_fields`).
            setters = () if set_when_built(info.scope.owner, field, index.classes) else \
                setters_besides_construction(info.scope.owner, field, method)
        if setters is None or (setters and marker):
            continue
        held = f"{func.value.value}.{field}"
        if not marker:
            also = "".join(f" and `{name}`" for name in setters)
            between = " or ".join(f"`{name}`" for name in setters)
            uses.append(Consumption(call, use.key, how, library=False, kind=use.kind,
                                    held_by=func.value.value,
                                    followed="" if isinstance(use.key, cst.Attribute)
                                    and "." not in field else held,
                                    proof=f"`{method.name.value}` draws from `self.{field}`, "
                                          f"which only `__init__`{also} set"
                                          + (f", and no call of {between} comes between"
                                             if setters else "s")))
            continue
        folded = _folded_by_call(call, method, flow, held, data)
        fold = flow.first_fold.get(f"{name}{FOLDED_WITH}{data}")
        if folded is not None and fold is not None:
            # Reported at the method's `fold_in`, where the data must change.
            at_fold = Consumption(fold, use.key, "jax.random.fold_in", kind="fold")
            uses.append(Consumption(call, use.key, how, library=False, kind=use.kind,
                                    held_by=func.value.value, followed=folded, closed=at_fold,
                                    proof=f"`{method.name.value}` draws from `fold_in(self."
                                          f"{field}, {data})`, and only `__init__` sets "
                                          f"`self.{field}`"))
    return uses


def _folded_by_call(call: cst.Call, method: cst.FunctionDef, flow: KeyRecorder, held: str,
                    data: str) -> str | None:
    """The name `fold_in(self.<field>, data)` in `method` is followed under at `call`: the
    object's key folded with the literal the method folds, or with what the call gives the
    parameter it folds (a literal or a name); None for anything else."""
    if data.isdigit():
        return folded_name(held, cst.Integer(data))
    if data not in flow.params or data in flow.bound:
        return None  # a name the method binds itself
    given = next((expr for param, expr in bind_arguments(method, call, True)
                  if param.name.value == data), None)
    return None if given is None else folded_name(held, given)


def nested_unassigned(index: FileIndex, owner: ClassInfo, path: str) -> bool:
    """`self.<path>` (`config.loop.rng_seed`) holds what the constructor stored: its first
    attribute is set only when the object is built, and no statement of the file assigns to
    an attribute of one of the path's other names (`x.loop = ...`, `x.rng_seed += 1`)."""
    first, *inner = path.split(".")
    if not set_when_built(owner, first):
        return False
    for name in inner:
        for site in index.attributes.get(name, ()):
            if _assigned_to(index, site.node) and not _building(site):
                return False
    return True


def _building(site: AttributeSite) -> bool:
    """`self.loop = ...` in a constructor: the object being built gets its value."""
    node = site.scope.node
    return (isinstance(node, cst.FunctionDef) and node.name.value in ("__init__", "__post_init__")
            and site.scope.self_name is not None and isinstance(site.node.value, cst.Name)
            and site.node.value.value == site.scope.self_name)


def _assigned_to(index: FileIndex, node: cst.Attribute) -> bool:
    parent = index.parents().get(id(node))
    if isinstance(parent, (cst.AssignTarget, cst.AugAssign)):
        return parent.target is node
    if isinstance(parent, cst.AnnAssign):
        return parent.target is node
    if isinstance(parent, cst.Element):  # `a.x, b = ...`
        unpacked = index.parents().get(id(parent))
        return isinstance(index.parents().get(id(unpacked)), cst.AssignTarget)
    return False


def stores_on_object(index: FileIndex, method: cst.FunctionDef) -> bool:
    """`method` sets an attribute of its object (`self.params = ...`): called as a bare
    statement, it is called for that, not a warm-up whose draw is thrown away."""
    info = index.functions.get(method)
    owner = info.scope.owner if info is not None else None
    return owner is not None and any(
        binding.scope is not None and binding.scope.node is method
        for bindings in owner.attributes.values() for binding in bindings)


def called_for_effect(index: FileIndex, method: cst.FunctionDef) -> bool:
    """`method` changes its object or what it is given (`self.x = ...`, `self.n += 1`,
    `state.x0 = ...`, `buffer[i] = ...`): called as a bare statement, it is called for that, not
    a warm-up whose draw is thrown away (chiron c6f5a63: `self.apply(thermo, sampler_state)`
    in a loop, counting `self.n_accepted += 1` and moving `sampler_state.x0`)."""
    if stores_on_object(index, method):
        return True
    names = {param.name.value for param in (*method.params.posonly_params,
                                            *method.params.params,
                                            *method.params.kwonly_params)}
    # Read with `child_nodes`: libcst's `visit` rebuilds every node of the body (about
    # sixteen times the cost), and this is asked at every call of the method.
    pending: list[cst.CSTNode] = [method.body]
    while pending:
        node = pending.pop()
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            continue  # a nested function runs when called, if ever
        if isinstance(node, cst.AssignTarget):
            targets = ([element.value for element in node.target.elements]
                       if isinstance(node.target, (cst.Tuple, cst.List)) else [node.target])
            if any(_into_name(target, names) for target in targets):
                return True
        elif isinstance(node, cst.AugAssign) and _into_name(node.target, names):
            return True
        pending.extend(child_nodes(node))
    return False


def _into_name(target: cst.BaseExpression, names: set[str]) -> bool:
    """`target` stores into an attribute or item of one of `names` (`x.a`, `x[i]`)."""
    return (isinstance(target, (cst.Attribute, cst.Subscript))
            and isinstance(target.value, cst.Name) and target.value.value in names)


def set_when_built(owner: ClassInfo, field: str,
                   classes: dict[str, ClassInfo] | None = None) -> bool:
    """`self.<field>` is set only when the object is built (`__init__`, a field). With the
    file's `classes`, the bases of the file count too: a key a base's constructor stores
    (`super().__init__(seed)`, chiron c6f5a63) is the object's as well."""
    chain = [owner] if classes is None else file_bases(owner, classes)
    bindings = [binding for cls in chain for binding in cls.attributes.get(field, [])]
    if not bindings and not any(field in cls.fields for cls in chain):
        return False
    return only_in_constructors(bindings)


def only_in_constructors(bindings: list[Binding]) -> bool:
    """Every one of these bindings of `self.<field>` is in a constructor (`__init__`,
    `__post_init__`); so is none."""
    return all(binding.scope is not None and isinstance(binding.scope.node, cst.FunctionDef)
               and binding.scope.node.name.value in ("__init__", "__post_init__")
               for binding in bindings)


def file_bases(owner: ClassInfo, classes: dict[str, ClassInfo]) -> list[ClassInfo]:
    """`owner` and the classes of its file it derives from, by the names its bases give."""
    found, todo = [owner], [owner]
    while todo:
        for base in todo.pop().bases:
            cls = classes.get(base.value) if isinstance(base, cst.Name) else None
            if cls is not None and all(cls is not known for known in found):
                found.append(cls)
                todo.append(cls)
    return found


# Transformations that make a method a compiled step, run again and again with what it is given.
_COMPILED = frozenset({"jax.jit", "equinox.filter_jit", "jax.pmap", "equinox.filter_pmap"})


def compiled_step(method: cst.FunctionDef, qualify: Callable[[cst.BaseExpression], str | None]
                  ) -> bool:
    """`method` is decorated as a compiled step: `@jax.jit`, `@eqx.filter_jit`, or
    `@functools.partial(jax.jit, static_argnums=(0,))` (a method of an object held static)."""
    return any(_compiling(decorator, qualify) for decorator in method.decorators)


def compiled_only(method: cst.FunctionDef, qualify: Callable[[cst.BaseExpression], str | None]
                  ) -> bool:
    """Every decorator of `method` compiles it or only marks it (none: undecorated): a call of
    it runs its body with the call's arguments, once."""
    return all(_compiling(decorator, qualify) or qualify(decorator.decorator) in _MARKING
               for decorator in method.decorators)


# Decorators that return the function they are given: `@typing.override` only sets a flag.
_MARKING = frozenset({"typing.override", "typing_extensions.override"})


def called_method(info: ClassInfo, name: str,
                  qualify: Callable[[cst.BaseExpression], str | None]) -> cst.FunctionDef | None:
    """The method `name` a class defines itself, undecorated or only compiled
    (`@partial(jax.jit, static_argnums=(2,))` on levanter's `__call__`): what calling it runs
    with the call's arguments."""
    for item in info.node.body.body:
        if isinstance(item, cst.FunctionDef) and item.name.value == name:
            return item if compiled_only(item, qualify) else None
    return None


def _compiling(decorator: cst.Decorator, qualify: Callable[[cst.BaseExpression], str | None]
               ) -> bool:
    expr = decorator.decorator
    if isinstance(expr, cst.Call):
        if qualify(expr.func) == FUNCTOOLS_PARTIAL and expr.args:
            expr = expr.args[0].value
        else:
            expr = expr.func  # `@jax.jit(...)`-style factories
    return qualify(expr) in _COMPILED


def set_on_class(owner: ClassInfo, field: str) -> cst.FunctionDef | None:
    """The classmethod that keeps a key on the class (`cls.<field> = ...`) where no instance
    gets one of its own when built: `self.<field>` reads the class's key until a method stores
    one on the instance, so every new instance starts from the same key. None: not so."""
    if any(binding.scope is not None and isinstance(binding.scope.node, cst.FunctionDef)
           and binding.scope.node.name.value in ("__init__", "__post_init__")
           for binding in owner.attributes.get(field, [])):
        return None
    for item in owner.node.body.body:
        if (not isinstance(item, cst.FunctionDef) or not item.params.params
                or "classmethod" not in method_kinds(item)):
            continue
        cls = item.params.params[0].name.value
        if any(_sets(target, cls, field) for target in _assigned(item)):
            return item
    return None


def _assigned(node: cst.CSTNode) -> list[cst.BaseExpression]:
    """The targets of the assignments in `node`'s body (tuple targets' elements too)."""
    found: list[cst.BaseExpression] = []

    class _Targets:
        def visit_AssignTarget(self, target: cst.AssignTarget) -> None:
            found.append(target.target)
            if isinstance(target.target, (cst.Tuple, cst.List)):
                found.extend(element.value for element in target.target.elements)

    walk(node, _Targets())  # (libcst's visit rebuilds every node of a classmethod's body)
    return found


def _sets(target: cst.BaseExpression, owner: str, field: str) -> bool:
    return (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
            and target.value.value == owner and target.attr.value == field)


def given_object_consumptions(call: cst.Call, function: cst.FunctionDef, bound: bool,
                              flow: KeyRecorder, how: str,
                              ctx: RuleContext | None = None, foreign: bool = False
                              ) -> list[Consumption]:
    """`act(state, obs)` where `act` draws from `state.rng_key` before rebinding `state`: the
    call consumes the caller's `state.rng_key` (followed under the name the caller gives), or
    the caller's `key` where `state = State(rng_key=key)` built it and `key` still names that
    key at the call. `foreign`: `act` is of another file, whose nodes stand for no key here
    (the caller's `state` does, followed as `state.rng_key`)."""
    uses = []
    for param, given in bind_arguments(function, call, bound):
        if not isinstance(given, cst.Name):
            continue
        for name, use in flow.attribute_uses.items():
            base, _, field = name.partition(".")
            if (base != param.name.value or "." in field or use.unseen or use.repeated
                    or use.kind not in ("draw", "split")):
                continue
            if name in flow.stored_names:
                # The callee stores a new key there (`info["rng"], sub = split(info["rng"])`,
                # an env advancing its dict's key in place): the object holds that one after.
                continue
            if not isinstance(use.key, cst.Attribute):
                # A key made from the object's field (`rng = PRNGKey(config.seed)`): the
                # caller's object's field makes the same key.
                made = flow.seeded_fields.get(name)
                if made is not None:
                    uses.append(Consumption(call, given, how, library=False, kind=use.kind,
                                            followed=f"{given.value}.{field}", seeded_in=made,
                                            proof=f"`{how}` makes its key from `{name}`"))
                    continue
                # Read out of the object first (`rng = state.rng`, `carry = (batch["rng"],
                # ...)`) or an item of it (`batch["rng"]`, followed as `batch.rng`): the
                # caller's object's field is the key drawn from.
                uses.append(Consumption(call, given, how, library=False, kind=use.kind,
                                        held_by=given.value, followed=f"{given.value}.{field}"))
                continue
            held = None if ctx is None else built_with(ctx, call, given.value, field)
            if held is None and foreign:
                uses.append(Consumption(call, given, how, library=False, kind=use.kind,
                                        followed=f"{given.value}.{field}"))
                continue
            uses.append(Consumption(call, use.key if held is None else held, how,
                                    library=False, kind=use.kind, held_by=given.value,
                                    followed="" if held is None else held.value))
    return uses


def built_with(ctx: RuleContext, call: cst.Call, holder: str, field: str) -> cst.Name | None:
    """The name `holder` was given as `field` where it was built (`holder = State(rng_key=key)`,
    `holder = state.replace(rng_key=key)`), when `holder` at `call` is that object and the
    name still holds the same key there (None otherwise)."""
    site = ctx.site_of(call)
    binding = ctx.binding(holder, site) if site is not None else None
    value = binding.value if binding is not None and not binding.path else None
    if (not isinstance(value, cst.Call) or binding is None or binding.kind != "assign"
            or not (constructs(value) or replaced_from(value) is not None)):
        return None
    given = next((arg.value for arg in value.args
                  if arg.keyword is not None and arg.keyword.value == field), None)
    built = ctx.site_of(value)
    if not isinstance(given, cst.Name) or built is None or site is None:
        return None
    same = ctx.binding(given.value, built) is ctx.binding(given.value, site)
    return given if same else None
