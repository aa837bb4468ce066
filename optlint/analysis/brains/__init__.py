"""What library calls return, one module per library (astroid's "brain" plugins).

The evaluator (`inference.py`) knows Python: names, attributes, calls of the checked code's own
functions and classes. When a call reaches a library function (`optax.adamw`, `eqx.filter`,
`jax.jit`), it asks `library_call`, which hands the call to the handler a brain registered for
that name (`registry.py`). Each brain reads its library's facts from data (`apis.py`,
`optax_table.py`). Importing this package imports every brain, which registers its handlers; the
order sets which predicate is asked first.
"""

from __future__ import annotations

from optlint.analysis.brains import (
    equinox_calls,
    flax_haiku_calls,
    jax_calls,
    jaxopt_calls,
    optax_calls,
    python_calls,
)
from optlint.analysis.brains.registry import LibraryCall, library_call

__all__ = ["LibraryCall", "equinox_calls", "flax_haiku_calls", "jax_calls", "jaxopt_calls", "library_call",
           "optax_calls", "python_calls"]
