"""Branches a configuration's defaults take: `if not self._config.fix_alpha:` where the class
is built with `config: SacConfig` (kept as `self._config`) and `SacConfig`, a class of the file,
declares `fix_alpha: bool = False`. With that default the branch runs, so a key it consumes is
consumed on the default path, not only on some path: a later draw from it (here, or by a caller
given it back: `return ..., random_key`) draws from one key again whenever the configuration
keeps its default. The finding says so.

Only what the file shows counts: the holder is a parameter annotated with the class, or an
attribute of `self` every method assigns from such a parameter (or a field of the class
annotated with it); the class declares the field with a literal default and defines no
`__init__`/`__post_init__`; no call of the file passes that field a keyword other than the
default (`SacConfig(..., fix_alpha=True)`, `config.replace(fix_alpha=True)`), and no statement
of the file assigns an attribute of that name (`config.fix_alpha = True`). A test is
evaluated only from that field: as it is, under `not`, or compared with a literal (`==`,
`!=`, `is`, `is not`). Anything else is not decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import ClassInfo, Scope
from optlint.analysis.key_state import KeyState
from optlint.analysis.key_syntax import reads_as_key, tested_none
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.context import RuleContext

# A test's value under the defaults, and what proves it (for the finding's message).
DefaultTruth = tuple[bool, str]
DefaultTest = Callable[[cst.BaseExpression], "DefaultTruth | None"]

_UNKNOWN = object()
_CONSTANTS = {"True": True, "False": False, "None": None}
# Methods that may set a field whatever its declared default says.
_SETTERS = ("__init__", "__post_init__")


class DefaultBranches:
    """Per file: the defaults of its classes' fields that no call of the file overrides."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self._defaults: dict[tuple[str, str], object] = {}
        self._keywords: dict[str, list[cst.BaseExpression]] | None = None

    def tester(self, scope: Scope | None) -> DefaultTest | None:
        """What decides the tests of one function's walk (None: not a function's)."""
        if scope is None or scope.kind != "function":
            return None
        return lambda test: self.truth(test, scope)

    def truth(self, test: cst.BaseExpression, scope: Scope) -> DefaultTruth | None:
        """The value of `test` when the field it reads holds its declared default."""
        whole, negated = test, False
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, negated = test.expression, not negated
        compare: tuple[cst.BaseCompOp, object] | None = None
        if isinstance(test, cst.Comparison):
            if len(test.comparisons) != 1:
                return None
            target = test.comparisons[0]
            literal = _literal(target.comparator)
            if literal is _UNKNOWN or not isinstance(target.operator, (
                    cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)):
                return None
            compare, test = (target.operator, literal), test.left
        if not isinstance(test, cst.Attribute):
            return None  # the cheap gate: a field read (`config.x`, `self._config.x`)
        found = self._field_default(test, scope)
        if found is None:
            return None
        value, owner = found
        if compare is not None:
            operator, literal = compare
            same = value == literal if isinstance(operator, (cst.Equal, cst.NotEqual)) \
                else value is literal
            value = same if isinstance(operator, (cst.Equal, cst.Is)) else not same
        field = test.attr.value
        default = self.ctx.code(_default_node(self.ctx, owner, field))
        truth = not value if negated else bool(value)
        return (truth, f"on the default configuration: `{owner}.{field}` defaults to "
                       f"`{default}` and nothing in this file sets it, so "
                       f"`{self.ctx.code(whole)}` is {str(truth).lower()}")

    def _field_default(self, read: cst.Attribute, scope: Scope) -> tuple[object, str] | None:
        """(the default, the class) of the field `read` reads, when the file proves it."""
        owner = self._holder_class(read.value, scope)
        if owner is None:
            return None
        key = (owner.name, read.attr.value)
        if key not in self._defaults:
            self._defaults[key] = self._declared(owner, read.attr.value)
        value = self._defaults[key]
        return None if value is _UNKNOWN else (value, owner.name)

    def _declared(self, owner: ClassInfo, field: str) -> object:
        info = owner.fields.get(field)
        if info is None or info.default is None or any(
                isinstance(statement, cst.FunctionDef) and statement.name.value in _SETTERS
                for statement in owner.node.body.body):
            return _UNKNOWN
        value = _literal(info.default)
        if value is _UNKNOWN:
            return _UNKNOWN
        for given in self._given_keywords().get(field, ()):
            if _literal(given) is _UNKNOWN or _literal(given) != value:
                return _UNKNOWN
        if self._assigned(field):
            return _UNKNOWN
        return value

    def _assigned(self, field: str) -> bool:
        """The file sets an attribute of that name (`config.fix_alpha = True`)."""
        sites = self.ctx.index.attributes.get(field, ())
        if not sites:
            return False
        parents = self.ctx.index.parents()
        for site in sites:
            parent = parents.get(id(site.node))
            if isinstance(parent, cst.AssignTarget) or (
                    isinstance(parent, (cst.AugAssign, cst.AnnAssign))
                    and parent.target is site.node):
                return True
        return False

    def _given_keywords(self) -> dict[str, list[cst.BaseExpression]]:
        """The values the file's calls pass by keyword, by keyword (read once per file)."""
        if self._keywords is None:
            self._keywords = {}
            for site in self.ctx.calls():
                for arg in site.node.args:
                    if arg.keyword is not None:
                        self._keywords.setdefault(arg.keyword.value, []).append(arg.value)
        return self._keywords

    def _holder_class(self, holder: cst.BaseExpression, scope: Scope) -> ClassInfo | None:
        """The class of the file `holder` holds an instance of: a parameter annotated with
        it, or `self.<attr>` that the class only ever assigns from such parameters."""
        if isinstance(holder, cst.Name):
            return self._param_class(holder.value, scope)
        owner = scope.owner
        if (owner is None or not isinstance(holder, cst.Attribute)
                or not isinstance(holder.value, cst.Name)
                or holder.value.value != scope.self_name):
            return None
        attr = holder.attr.value
        classes: set[str] = set()
        field = owner.fields.get(attr)
        if field is not None:
            named = self._annotated(field.annotation)
            if named is None or field.default is not None:
                return None
            classes.add(named.name)
        for binding in owner.attributes.get(attr, ()):
            value = binding.value
            if (binding.kind != "assign" or binding.path or not isinstance(value, cst.Name)
                    or binding.scope is None):
                return None
            named = self._param_class(value.value, binding.scope)
            if named is None:
                return None
            classes.add(named.name)
        return self.ctx.index.classes.get(classes.pop()) if len(classes) == 1 else None

    def _param_class(self, name: str, scope: Scope) -> ClassInfo | None:
        bindings = scope.bindings.get(name, ())
        if len(bindings) != 1 or bindings[0].kind != "param" or not isinstance(
                bindings[0].node, cst.Param) or bindings[0].node.annotation is None:
            return None
        return self._annotated(bindings[0].node.annotation.annotation)

    def _annotated(self, annotation: cst.BaseExpression | None) -> ClassInfo | None:
        if isinstance(annotation, cst.SimpleString):
            named = annotation.evaluated_value
            return self.ctx.index.classes.get(named) if isinstance(named, str) else None
        if isinstance(annotation, cst.Name):
            return self.ctx.index.classes.get(annotation.value)
        return None


def settle_default_branch(test: DefaultTest | None, node: cst.If,
                          ends: tuple[KeyState | None, KeyState | None],
                          merged: KeyState | None) -> None:
    """After the paths of `node` join: a key its default branch consumes (`ends`: the end of
    its body and of what follows `else`) is consumed, not maybe consumed, with the default
    as the proof. Before that, a key given or not (`keep_given_key`)."""
    keep_given_key(node, ends, merged)
    if test is None or merged is None or not merged.maybe:
        return
    decided = test(node.test)
    if decided is None:
        return
    taken = ends[0] if decided[0] else ends[1]
    if taken is None:
        return
    for name in list(merged.maybe):
        use = taken.consumed.get(name)
        if use is None or name in taken.maybe:
            continue
        merged.maybe.discard(name)
        merged.consumed[name] = use if use.proof else replace(use, proof=decided[1])


def keep_given_key(node: cst.If, ends: tuple[KeyState | None, KeyState | None],
                   merged: KeyState | None) -> None:
    """`if key is None: key = jax.random.PRNGKey(0)` with no `else`, `key` a parameter: the
    branch runs only when no key is given, so wherever the caller gives one the name still holds
    it after the join, as a parameter's, consumed or not as before the `if` (jaxsim df81dfa:
    `random_model_data(model, key=key)`, which splits its key after such a fallback, drew the
    same data in every row it was given one key). Without this the parameter counted as bound
    anew and no caller saw it consumed."""
    name = tested_none(node.test)
    taken, other = ends
    if (name is None or not reads_as_key(name) or node.orelse is not None or merged is None or taken is None
            or other is None or name not in taken.rebound or name in other.rebound):
        return
    merged.rebound.discard(name)
    _restore(merged, other, name)


def given_key_fallback(node: cst.Assign, params: Set[str], rebound: Set[str]
                       ) -> cst.BaseExpression | None:
    """`key = jax.random.PRNGKey(0) if key is None else key` (or `key if key is not None else
    ...`), `key` a parameter not bound anew (`rebound`) before: the fallback, which runs only when no key is
    given; wherever the caller gives one the name still holds it, as for the `if` form
    (`keep_given_key`; jaxsim df81dfa's `random_model_data`). None: not such an assignment."""
    value = node.value
    if (not isinstance(value, cst.IfExp) or len(node.targets) != 1
            or not isinstance(node.targets[0].target, cst.Name)):
        return None
    name = node.targets[0].target.value
    test = value.test
    if (name not in params or name in rebound or not reads_as_key(name)
            or not isinstance(test, cst.Comparison)
            or not isinstance(test.left, cst.Name) or test.left.value != name
            or len(test.comparisons) != 1
            or not isinstance(test.comparisons[0].comparator, cst.Name)
            or test.comparisons[0].comparator.value != "None"):
        return None
    operator = test.comparisons[0].operator
    kept, fallback = ((value.orelse, value.body) if isinstance(operator, cst.Is)
                      else (value.body, value.orelse) if isinstance(operator, cst.IsNot)
                      else (None, None))
    if not isinstance(kept, cst.Name) or kept.value != name:
        return None
    return fallback


def falls_back(function: cst.FunctionDef, param: str) -> bool:
    """Whether `function` gives its parameter `param` a key of its own when given `None`, in
    either form (`keep_given_key`, `given_key_fallback`), anywhere in its body. An `if` that
    raises for `None` (vllm's `rejection_sample`) gives it nothing: the branch must bind it."""
    pending: list[cst.CSTNode] = list(function.body.children)
    while pending:
        node = pending.pop()
        if (isinstance(node, cst.If) and node.orelse is None and tested_none(node.test) == param
                and _binds(node.body, param)):
            return True
        if (isinstance(node, cst.Assign)
                and given_key_fallback(node, frozenset({param}), frozenset()) is not None):
            return True
        if not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda,
                                 cst.BaseExpression)):
            pending.extend(child_nodes(node))
    return False


def _binds(body: cst.BaseSuite, name: str) -> bool:
    """Whether a statement of `body` itself (not a nested block) assigns `name`."""
    for line in body.body if isinstance(body, cst.IndentedBlock) else [body]:
        for small in getattr(line, "body", ()):
            targets = ([target.target for target in small.targets]
                       if isinstance(small, cst.Assign)
                       else [small.target] if isinstance(small, cst.AnnAssign) else [])
            if any(isinstance(target, cst.Name) and target.value == name for target in targets):
                return True
    return False


def _restore(merged: KeyState, other: KeyState, name: str) -> None:
    """`merged`'s facts about `name` become `other`'s (the path where the `if` did not run)."""
    for attribute in ("consumed", "origin", "seeded", "unread", "where"):
        mine, theirs = getattr(merged, attribute), getattr(other, attribute)
        if name in theirs:
            mine[name] = theirs[name]
        else:
            mine.pop(name, None)
    for attribute in ("maybe", "spent"):
        mine_set, theirs_set = getattr(merged, attribute), getattr(other, attribute)
        if name in theirs_set:
            mine_set.add(name)
        else:
            mine_set.discard(name)


def _default_node(ctx: RuleContext, owner: str, field: str) -> cst.CSTNode:
    info = ctx.index.classes[owner].fields[field]
    assert info.default is not None
    return info.default


def _literal(node: cst.BaseExpression) -> object:
    if isinstance(node, cst.Name):
        return _CONSTANTS.get(node.value, _UNKNOWN)
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return node.evaluated_value
    return _UNKNOWN
