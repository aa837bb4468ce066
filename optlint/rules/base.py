"""What a rule is: a code, a name, a one-line summary, and a `check` that yields findings."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import libcst as cst

from optlint.catalog import info_of
from optlint.diagnostics import Applicability
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext

FixAvailability = Literal["always", "sometimes", "none"]


@record(frozen=False)
class FixPlan:
    """A fix as the rule sees it: nodes to replace with new code, and imports the code needs.

    `imports` holds (module, alias) pairs such as ("equinox", "eqx"); the fixer adds
    `import equinox as eqx` only when the file does not already import that module.
    """

    applicability: Applicability
    message: str
    replacements: list[tuple[cst.CSTNode, str]]
    imports: list[tuple[str, str]] = field(default_factory=list)


@record(frozen=False)
class Finding:
    """What a rule reports at `node`.

    `message` says what is wrong; `fix_title` says what to do about it (ruff's `message()` and
    `fix_title()`), and is the fix's own title when the rule gives a fix and no other advice.

    `roles` names the nodes the finding is about, so that the verifier (and the JSON output)
    need not find them again or read them out of the message. The names are fixed:
    "call": the call the finding is about, around which `optlint verify` builds (the chain,
    `MultiSteps`, `masked`, an `init`/`update`/`apply_updates` call, the call a mask is given
    to; for a reused PRNG key, the second consumer); "first_call": the call that consumed the
    same key before "call" did (the same call for a reuse across loop iterations); "key" and
    "first_key": the key expression each of them is given; "drawn_at": for a key drawn in every
    step or row of a loop or batching call ("call"), the draw in the function it runs;
    "consumed_in": for a second consumer that is a function of the file, where it consumes the
    key the call gives it;
    "mask": the mask given to "call";
    "traced": the parameter a JAX transformation traces; "excluded": where a decay mask writes
    the name it spares that matches no parameter path. `values` holds what the analysis
    inferred for a role where no node says it: "field" and "other_field", the names of the
    class fields a finding names (a field may be given by position, with no name node).
    `unproven` says what the analysis could not see when the finding rests on it (an optimizer
    whose factory is a parameter nobody passes, a field whose kind is unknown): such a finding is
    reported only under `--preview`, with that text in its message.
    """

    node: cst.CSTNode
    message: str
    fix: FixPlan | None = None
    unproven: str | None = None
    roles: dict[str, cst.CSTNode] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)
    fix_title: str | None = None

    def __post_init__(self) -> None:
        if self.unproven is not None:
            self.message = f"{self.message} [preview: {self.unproven}]"
        if self.fix_title is None and self.fix is not None:
            self.fix_title = self.fix.message


@record
class RuntimeCheck:
    """How `optlint verify` proves a finding of the rule by running the user's code.

    `builds` says what the harness builds around the flagged code: "transform" (the optimizer
    expression around the anchor call, with params from its `.init(...)` or stand-ins), "params"
    (an `init`/`update`/`apply_updates` call: the optimizer, params and state given to it),
    "function" (a JAX transformation applied to a function), "expression" (the flagged
    expression itself, as written and as the fix rewrites it, given to the probe as the role
    `flagged`: a function of no arguments that evaluates it), "value" (the whole expression of
    the statement the anchor call is in, e.g. the right-hand side of an assignment, as role
    `value`; with a probe, which decides what is wrong with it), "call" (the call around the
    flagged node, run as written and as fixed) or "instance" (a call in the file constructing
    the class the flagged node is in; see verify/call_plan.py) or "keys" (the statements that
    make and split a key, up to its second consumer, with each consumer recording the key it is
    given; see verify/key_plan.py). The harness builds around the
    finding's "call" role. `probe` ("module:function") names the behavioural check in
    `optlint/verify/probes/<module>.py` that replaces the default exercise (init, jitted
    updates, apply_updates); it raises `Misbehaved` for a silent hazard. `standin_params`: what
    params a "transform" check makes up when the file builds none: like a stand-in model's, or
    shaped like the finding's "mask" role (a mask that is a module tree).
    """

    builds: Literal["params", "transform", "function", "expression", "value", "call",
                    "instance", "keys"]
    probe: str | None = None
    standin_params: Literal["model", "mask"] = "model"


class Rule:
    """A rule class names its code; its name, summary, fix availability and trigger words (the
    words a file must contain for it to fire) are its row in optlint.catalog, set here."""

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    fix_availability: ClassVar[FixAvailability] = "none"
    trigger_words: ClassVar[tuple[str, ...]] = ("optax", "equinox", "eqx")
    # None: `optlint verify` has no way to run this rule's findings.
    runtime_check: ClassVar[RuntimeCheck | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        row = info_of(cls.__dict__.get("code", ""))
        if row is None:
            return  # a rule made up by a test names its own metadata
        for attribute in ("name", "summary", "fix_availability", "trigger_words"):
            if attribute not in cls.__dict__:
                setattr(cls, attribute, getattr(row, attribute))

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        raise NotImplementedError
