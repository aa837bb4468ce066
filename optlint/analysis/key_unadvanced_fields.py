"""A method drawing from a key its object holds without advancing it, where the class's other
methods advance that key before they draw (mcx 0afe92a, held-out set 2: `forward` returned
`sample_forward(self.rng_key, self)` while `__call__` and `sample` first ran
`_, self.rng_key = jax.random.split(self.rng_key)`). After the method draws, the key is as it
was: its next call draws the same numbers, and an advancing method splitting the key after it
splits a key already drawn from (JAX's key-reuse checker raises on either).

What is proven, by the class's own statements:
- the method is no constructor and binds `self.K` nowhere;
- it draws from `self.K` or splits it (not under a loop repeating it, not through a function the
  analysis cannot see draw);
- a constructor of the class sets `self.K`;
- another method binds `self.K` to a part of `jax.random.split(self.K)`: the class treats the
  key as a stream it advances.
Whether the program calls the method twice, or an advancing method after it, is not seen.
Where no method advances the key (only a constructor sets it), a loop of steps of another
project file calling the method on one object proves it (`key_unadvanced_callers.py`).
Reported once per method and key, at its first draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import Binding, FunctionInfo
from optlint.analysis.key_unadvanced_callers import stepped_elsewhere
from optlint.analysis.prng_keys import Consumption
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext

_CONSTRUCTORS = frozenset({"__init__", "__post_init__", "setup"})
_SPLIT = "jax.random.split"


@record
class UnadvancedDraw:
    use: Consumption
    key: cst.Attribute  # `self.K` as the method reads it
    method: str
    advancing: tuple[str, ...]  # the methods that advance the key, by name
    # Where none does: the loop of another project file calling the method on one object.
    stepped: str = ""


def unadvanced_draws(ctx: RuleContext, info: FunctionInfo,
                     uses: Iterable[tuple[Consumption, cst.Attribute]]
                     ) -> Iterator[UnadvancedDraw]:
    """The draws of `uses` (the method's draws from keys its object holds) that leave a key
    the other methods advance as it was."""
    owner, scope, node = info.scope.owner, info.scope, info.node
    if owner is None or not isinstance(node, cst.FunctionDef) or node.name.value in _CONSTRUCTORS:
        return
    reported: set[str] = set()
    for use, key in uses:
        if use.kind not in ("draw", "split") or key.attr.value in reported:
            continue
        reported.add(key.attr.value)  # once per key and method: the first draw
        bindings = owner.attributes.get(key.attr.value, [])
        if any(binding.scope is scope for binding in bindings) or not any(
                _method_name(binding) in _CONSTRUCTORS for binding in bindings):
            continue
        advancing = sorted({_method_name(binding) for binding in bindings
                            if _advances(ctx, binding, key.attr.value)})
        if advancing:
            yield UnadvancedDraw(use, key, node.name.value, tuple(advancing))
        elif all(_method_name(binding) in _CONSTRUCTORS for binding in bindings):
            # Nothing advances it: a loop of another file calling the method on one object.
            stepped = stepped_elsewhere(ctx, owner, node.name.value, key.attr.value)
            if stepped is not None:
                yield UnadvancedDraw(use, key, node.name.value, (), stepped)


def _method_name(binding: Binding) -> str:
    node = binding.scope.node if binding.scope is not None else None
    return node.name.value if isinstance(node, cst.FunctionDef) else ""


def _advances(ctx: RuleContext, binding: Binding, field: str) -> bool:
    """`binding` sets `self.<field>` to a part of `jax.random.split(self.<field>)`, in a method
    (`_, self.key = split(self.key)`, `self.key = split(self.key)[0]`)."""
    scope = binding.scope
    value = binding.value
    if isinstance(value, cst.Subscript) and not binding.path:
        value = value.value
    elif not binding.path:
        return False
    if (scope is None or scope.self_name is None or not isinstance(value, cst.Call)
            or not value.args or ctx.qualify(value.func) != _SPLIT):
        return False
    given = value.args[0].value
    return (isinstance(given, cst.Attribute) and isinstance(given.value, cst.Name)
            and given.value.value == scope.self_name and given.attr.value == field)
