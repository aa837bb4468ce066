"""The names an Equinox model's parameter paths are made of: its field names, down through the
modules it holds (the project's classes, and the equinox.nn layers from apis'
EQUINOX_NN_PATH_NAMES). A weight-decay mask that excludes leaves by name (`"LayerNorm" in
keystr(path)`) can only match these; a name that is part of none of them matches nothing.
"""

from __future__ import annotations

from dataclasses import field

from optlint.analysis import apis
from optlint.analysis.evaluator import Evaluator
from optlint.analysis.index import LATER
from optlint.analysis.values import Leaves, ModuleValue, SequenceValue, Value
from optlint.records import record

_MAX_DEPTH = 12


@record
class PathNames:
    names: frozenset[str]  # every field name on a path from the model to a leaf
    norms: frozenset[str]  # the equinox.nn normalisation layers the model holds
    classes: tuple[str, ...]  # the project classes read, outermost first (for messages)
    # Names known by their start only: (prefix, "numbered") for a name the library numbers
    # (Flax's `LayerNorm_0`), (prefix, "renumbered") for one it numbers from the second on
    # (Haiku's `linear`, `linear_1`), (prefix, "any") for one built by an f-string, ("",
    # "digits") for `name=str(i)` over `range(...)`.
    patterns: frozenset[tuple[str, str]] = field(default=frozenset())
    # Norm layers built under a stacking transformation (`nn.scan`, `nn.vmap`): their scales
    # and biases carry a leading layer axis, so they are not 1-D.
    stacked: frozenset[str] = field(default=frozenset())

    def has_part(self, name: str, whole: bool) -> bool:
        """Whether `name` is a part of some path: equal to one (`whole`, as a tuple path's
        element is compared), or contained in one ignoring case (as in a path string)."""
        if whole:
            return name in self.names or any(
                name.startswith(prefix) and _rest_matches(name[len(prefix):], kind)
                for prefix, kind in self.patterns)
        lower = name.lower()
        return any(lower in part.lower() for part in self.names) or any(
            kind == "any" or lower in _first_of(prefix, kind).lower()
            for prefix, kind in self.patterns)


def _first_of(prefix: str, kind: str) -> str:
    return f"{prefix}0" if kind == "digits" else f"{prefix}_0"


def _rest_matches(rest: str, kind: str) -> bool:
    if kind == "any" or (kind == "renumbered" and rest == ""):
        return True
    if kind == "digits":
        return rest.isdigit()
    return rest.startswith("_") and rest[1:].isdigit()


def path_names(model: ModuleValue, evaluator: Evaluator) -> PathNames | None:
    """The model's path names (`evaluator`: the file's that holds the model); None where some
    field's value cannot be seen (a class of another package, an `eqx.nn.Sequential`, a field
    assigned something unknown)."""
    names: set[str] = set()
    norms: set[str] = set()
    classes: list[str] = []
    if not _collect(evaluator, model, names, norms, classes, 0):
        return None
    return PathNames(frozenset(names), frozenset(norms), tuple(classes))


def _collect(evaluator: Evaluator, value: Value | Leaves, names: set[str], norms: set[str],
             classes: list[str], depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, Leaves):
        return value.kind != "unknown"
    if isinstance(value, SequenceValue):
        return all(_collect(evaluator, item, names, norms, classes, depth + 1)
                   for item in value.items)
    if not isinstance(value, ModuleValue):
        return False
    if value.cls is None:
        layer = value.class_name
        if layer not in apis.EQUINOX_NN_PATH_NAMES:
            return False
        names.update(apis.EQUINOX_NN_PATH_NAMES[layer])
        if layer in apis.EQUINOX_NN_NORMS:
            norms.add(layer)
        return True
    info, owner = value.cls.info, evaluator.evaluator_for(value.cls.path)
    if info.name in classes:
        return True  # already read (a class holding instances of itself, or met twice)
    classes.append(info.name)
    for base in info.bases:
        base_value = owner.value_of(base, info.scope, LATER)
        if owner.qualify(base) == "equinox.Module":
            continue
        module = owner.instance_of(base_value)
        if not isinstance(module, ModuleValue) or not _collect(owner, module, names, norms,
                                                               classes, depth + 1):
            return False
    for name in {*info.fields, *info.attributes}:
        names.add(name)
        if not _collect(owner, owner.field_value(info, name), names, norms, classes, depth + 1):
            return False
    return True
