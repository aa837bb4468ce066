"""OPT011: a model rebuilt from `eqx.filter`'s arrays must not hold None where its class says a
field is not optional (a `use_relu: bool`, an MLP's `activation: Callable`): those are the
non-array fields the filter replaced, which `eqx.combine` would have put back."""

from typing import Any

from optlint.verify.checks import Misbehaved


def no_missing_fields(values: dict[str, Any]) -> str:
    tree = values["value"]
    missing = none_fields(tree, type(tree).__name__)
    if missing:
        shown = ", ".join(missing[:4]) + (f" and {len(missing) - 4} more" if len(missing) > 4
                                          else "")
        raise Misbehaved(f"the rebuilt {type(tree).__name__} holds None in {shown} "
                         f"(fields whose annotation does not admit None)")
    return f"no non-optional field of the rebuilt {type(tree).__name__} is None"


def none_fields(node: Any, path: str) -> list[str]:
    """Paths of the Equinox module fields under `node` that are None although their annotation
    does not admit None (a field annotated `X | None`, `Optional[X]` or `Any` may be None)."""
    import dataclasses

    import equinox as eqx

    found: list[str] = []
    if isinstance(node, eqx.Module):
        for field in dataclasses.fields(node):
            value = getattr(node, field.name, None)
            where = f"{path}.{field.name}"
            if value is None:
                if not admits_none(field.type):
                    found.append(where)
            else:
                found.extend(none_fields(value, where))
    elif isinstance(node, (list, tuple)):
        for position, item in enumerate(node):
            found.extend(none_fields(item, f"{path}[{position}]"))
    elif isinstance(node, dict):
        for key, item in node.items():
            found.extend(none_fields(item, f"{path}[{key!r}]"))
    return found


def admits_none(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return any(word in text for word in ("None", "Optional", "Any"))
