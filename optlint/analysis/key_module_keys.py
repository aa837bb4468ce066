"""Keys of the module that its functions draw from: `KEY = jax.random.PRNGKey(0)` at the top of
a script, and `def get_batch(): ... jax.random.choice(KEY, ...)`. Every call of such a function
draws from the one module key, like a closure drawing from its enclosing function's key: two
calls draw the same numbers. Only names the module binds by assignment alone count (an import
or a function is no key), and a function binding the name itself (`global KEY; KEY, sub =
split(KEY)`) draws from a new key each time (`free_consumed` leaves those out)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from optlint.analysis.prng_keys import Consumption
    from optlint.context import RuleContext


def module_key_uses(ctx: RuleContext, free: dict[str, Consumption]) -> list[Consumption]:
    """Of the keys a module-level function draws from without binding them (`free`), those the
    module assigns."""
    scope = ctx.index.module_scope
    found = []
    for name, use in free.items():
        bindings = scope.bindings.get(name.split(".", 1)[0], [])
        if bindings and all(binding.kind == "assign" for binding in bindings):
            found.append(use)
    return found
