"""Consumptions by a library that derives its keys from the one it is given with data of its own
(`flax.linen`'s `init` and `apply`: every key a module draws from is `fold_in(key, h)`, `h` a
hash of the module's path and a counter). Such a call repeats the draws of another such call
given the same key (two `init`s of one network give equal parameters), but no draw of a
`jax.random` call given it, nor a key `split` makes from it: so they are followed apart, under
the key's name with `DERIVED` added.

Measured with flax 0.12.8 and jax 0.10.2 (a Dense param at the module's root, an MLP of two
Dense layers, a root `make_rng('dropout')` in `apply`): no key they drew from equals
`split(key, n)[i]` (n = 2, 3, 8, 10) or `fold_in(key, i)` (i < 10), and with
`jax_debug_key_reuse` on, neither `init` then `split`, `split` then `init`, nor `normal` then
`init` of one typed key raises (`tests/test_prng_keys_derived.py` runs this where flax is).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from optlint.analysis.key_aliases import linked
from optlint.analysis.key_state import KeyState
from optlint.analysis.prng_keys import Consumption

# Added to a key's name to follow what such calls draw from it. It reads as an attribute, so
# binding the name again forgets it, and as a marker ("\x00"), so no code takes it for a field.
DERIVED = ".\x00derived"

# (the earlier consumption, this one, the name followed) -> records a reuse.
Record = Callable[[Consumption, Consumption, str, KeyState], None]


def consume_derived(use: Consumption, name: str, state: KeyState, record: Record,
                    where: tuple[int, int, cst.BaseStatement] | None) -> None:
    """`use` derives its keys from the key followed as `name`: a reuse when such a call
    derived from it before on every path here; `where`: the block and statement of `use`."""
    followed = name + DERIVED
    before = state.consumed.get(followed)
    if before is not None and followed not in state.maybe:
        record(before, use, followed, state)
    for held in (followed, *(other + DERIVED for other in linked(name, state))):
        state.consumed[held] = use
        state.maybe.discard(held)
        state.where.pop(held, None)
    if where is not None:
        state.where[followed] = where
