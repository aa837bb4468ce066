"""What optlint can report, as plain data: code, name, summary, fix availability, and the words
and libraries a file must have for the rule to fire (the engine's prefilter).

Kept apart from the rule classes so that `optlint --version`, `optlint rule` and a check whose
files all miss the prefilter never import libcst or the rules; a test keeps it equal to them.
"""

from __future__ import annotations

from optlint.records import record



@record
class RuleInfo:
    code: str
    name: str
    summary: str
    fix_availability: str
    # The prefilter (optlint/prefilter.py): a condition the rule needs to report in a file,
    # read across files, as the rule's analysis reads them. The file, or a project file of its
    # import neighbourhood (what it imports, what imports it, what those import), names one of
    # `libraries`, and has one of `trigger_words` (none: any file): the names that the values
    # the rule looks for are made with (`lbfgs`, `inject_hyperparams`), wherever the analysis
    # follows them from. tests/test_rule_conditions.py checks them against the rules' tables.
    trigger_words: tuple[str, ...] = ()
    libraries: tuple[str, ...] = ()


# Reported by the engine rather than by a rule class.
SYNTAX_ERROR = RuleInfo("OPT000", "invalid-syntax", "The file does not parse", "none")
UNUSED_NOQA = RuleInfo("OPT100", "unused-noqa", "A `# noqa: OPTnnn` directive that suppresses "
                       "nothing", "always")

# One row per rule: the rule class of code OPTnnn is in optlint/rules/<name, dashes as
# underscores>.py and takes its metadata from its row (tests/test_fast_start.py checks both).
RULE_INFOS: tuple[RuleInfo, ...] = (
    RuleInfo("OPT001", "callable-pytree-mask",
             "A module-shaped pytree passed to Optax as a mask or labels, which Optax calls",
             "always",
             ("adadelta", "adafactor", "adamaxw", "adamw", "adan", "add_decayed_weights",
              "additive_weight_decay", "acprop", "ademamix", "cocob", "dog", "dowg", "galore",
              "muon", "sophia", "lamb", "lars", "lion", "masked", "multi_transform",
              "partition"),
             ("optax", "equinox")),
    RuleInfo("OPT002", "inject-hyperparams-callable",
             "optax.inject_hyperparams given a callable that is not a schedule, or a traced "
             "static",
             "sometimes", ("inject_hyperparams", "inject_stateful_hyperparams"),
             ("optax", "equinox")),
    RuleInfo("OPT003", "unfiltered-equinox-model",
             "Optax init/update/apply_updates given an Equinox module with non-array leaves",
             "always", (),
             ("optax", "equinox")),
    RuleInfo("OPT004", "zero-nans-in-multisteps",
             "optax.zero_nans() inside the optimizer wrapped by optax.MultiSteps",
             "sometimes", ("zero_nans",),
             ("optax",)),
    RuleInfo("OPT005", "linesearch-equinox-module",
             "optax.lbfgs or a line search given an Equinox module, or updated without "
             "value_fn",
             "sometimes", ("lbfgs", "linesearch", "jaxopt"),
             ("optax", "jaxopt")),
    RuleInfo("OPT006", "jax-transform-on-equinox-model",
             "jax.jit/jax.grad/jax.value_and_grad over a function given an Equinox module",
             "sometimes", ("jit", "grad"),
             ("equinox",)),
    RuleInfo("OPT007", "update-missing-arguments",
             "optimizer update called without the params or value= one of its parts needs",
             "sometimes", ("update",),
             ("optax",)),
    RuleInfo("OPT008", "clip-after-optimizer",
             "A gradient clip chained after the transformation that already produced the "
             "update",
             "sometimes", ("clip",),
             ("optax",)),
    RuleInfo("OPT009", "masked-does-not-freeze",
             "optax.masked(opt, mask) as the whole optimizer: masked-out leaves move by "
             "+gradient",
             "sometimes", ("masked",),
             ("optax",)),
    RuleInfo("OPT010", "is-array-like-filter",
             "`eqx.filter(model, eqx.is_array_like)` gives an optimizer the model's Python "
             "scalars, whose gradients are None",
             "always", ("filter", "partition"),
             ("optax", "equinox")),
    RuleInfo("OPT011", "filtered-model-as-model",
             "a model rebuilt from `eqx.filter`'s arrays without `eqx.combine` is called: its "
             "non-array fields are None",
             "sometimes", ("filter", "partition"),
             ("optax", "equinox")),
    RuleInfo("OPT012", "lookahead-raw-params",
             "optax.lookahead's update given plain params instead of optax.LookaheadParams",
             "none", ("lookahead",),
             ("optax",)),
    RuleInfo("OPT013", "decay-on-frozen",
             "weight decay reaching leaves the code freezes (freeze before decay; "
             "stop_gradient buffers)",
             "sometimes", (),
             ("optax",)),
    RuleInfo("OPT014", "decay-after-scaling",
             "add_decayed_weights chained after the learning-rate scaling: the weights grow",
             "sometimes", ("add_decayed_weights", "additive_weight_decay"),
             ("optax",)),
    RuleInfo("OPT015", "hyperparams-path",
             "`opt_state.hyperparams` on a state not made by inject_hyperparams, or written "
             "where a schedule overwrites it",
             "sometimes", ("hyperparams",),
             ("optax",)),
    RuleInfo("OPT016", "schedule-free-eval",
             "schedule_free_eval_params given the state of a chain or wrapper, not the "
             "schedule-free state",
             "sometimes", ("schedule_free_eval_params",),
             ("optax",)),
    RuleInfo("OPT017", "plateau-before-scale-invariant",
             "reduce_on_plateau chained before a scale-invariant optimizer, which undoes it",
             "sometimes", ("reduce_on_plateau",),
             ("optax",)),
    RuleInfo("OPT018", "low-precision-hyperparams",
             "b2=0.999 stored or applied in bfloat16 params' dtype, where it is 1.0 "
             "(inject_hyperparams without hyperparam_dtype, or adam-type optimizers)",
             "sometimes", ("inject_hyperparams", "inject_stateful_hyperparams", "float16",
                           "half"),
             ("optax",)),
    RuleInfo("OPT019", "static-array-field",
             "eqx.field(static=True) on a module field that holds a JAX array",
             "none", ("static",),
             ("equinox",)),
    RuleInfo("OPT020", "prng-key-reuse",
             "One jax.random key consumed twice: identical samples or dropout masks",
             # No words: a key given by a caller (from outside the project too) is consumed
             # by `eqx.nn.MLP(..., key=key)`, Haiku's `net.init(key, x)`, a project helper; no
             # word is common to them (tests/fixtures/OPT003/negatives.py names none).
             "sometimes", (),
             ("jax", "equinox", "flax", "haiku", "trax")),
    RuleInfo("OPT021", "filter-transform-keyword-first",
             "A function under eqx.filter_grad/filter_value_and_grad called with its first "
             "argument by keyword",
             "sometimes", ("filter_grad", "filter_value_and_grad"),
             ("equinox",)),
    RuleInfo("OPT022", "shared-layer-alias",
             "The same module object stored in two fields of a model without eqx.nn.Shared",
             "none", (),
             ("equinox",)),
    RuleInfo("OPT023", "decay-mask-misses",
             "a weight-decay mask excluding names that match no parameter path of the model, "
             "or an empty exclusion list: norms and biases decay",
             "none", ("mask",),
             ("optax",)),
    RuleInfo("OPT024", "accumulation-misplaced",
             "gradient accumulation with apply_every(k) chained with a stateful optimizer "
             "instead of optax.MultiSteps",
             "sometimes", ("apply_every",),
             ("optax",)),
)


def info_of(code: str) -> RuleInfo | None:
    """The row of a rule's code."""
    return next((info for info in RULE_INFOS if info.code == code), None)


def rule_module(info: RuleInfo) -> str:
    """The module holding the rule's class."""
    return f"optlint.rules.{info.name.replace('-', '_')}"


def catalog() -> list[RuleInfo]:
    """Every code optlint can report, sorted by code."""
    return sorted([SYNTAX_ERROR, UNUSED_NOQA, *RULE_INFOS], key=lambda info: info.code)


def all_codes() -> list[str]:
    return [info.code for info in catalog()]


# For membership tests on hot paths (every noqa code, every editor diagnostic).
KNOWN_CODES = frozenset(info.code for info in (SYNTAX_ERROR, UNUSED_NOQA, *RULE_INFOS))


def rule_rows() -> str:
    """`optlint rule --all`: one line per code."""
    lines = []
    for info in catalog():
        fix = {"always": "fix", "sometimes": "fix (sometimes)", "none": "-"}[info.fix_availability]
        lines.append(f"{info.code}  {info.name:<32} {fix:<16} {info.summary}")
    return "\n".join(lines)
