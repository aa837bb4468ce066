"""jaxopt: the solvers whose `run` jits over the params it is given."""

from __future__ import annotations

from optlint.analysis import apis
from optlint.analysis.brains.registry import LibraryCall, handles
from optlint.analysis.values import SolverValue, Value


@handles(*apis.JAXOPT_JITTED_SOLVERS)
def solver(call: LibraryCall) -> Value:
    return SolverValue(call.name, call.call)
