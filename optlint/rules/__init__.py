"""The rule registry: the class of every rule in the catalog (optlint.catalog, importable without
libcst), found in the module its row names. A new rule is a catalog row and its own module; no
list here to extend."""

from __future__ import annotations

from importlib import import_module

from optlint.catalog import (  # noqa: F401 - the registry is named from here too
    RULE_INFOS,
    SYNTAX_ERROR,
    UNUSED_NOQA,
    RuleInfo,
    all_codes,
    catalog,
    rule_module,
)
from optlint.rules.base import Rule, RuntimeCheck


def rule_class(info: RuleInfo) -> type[Rule]:
    """The class of the module `info` names whose code is `info`'s."""
    module = import_module(rule_module(info))
    found = [value for value in vars(module).values()
             if isinstance(value, type) and issubclass(value, Rule)
             and value.__module__ == module.__name__ and value.__dict__.get("code") == info.code]
    if len(found) != 1:
        raise ImportError(f"{module.__name__}: expected one rule class of code {info.code}, "
                          f"found {len(found)}")
    return found[0]


# The order the rules run in decides which of two overlapping fixes a round applies first (OPT014
# moving a decay before the scaling, then OPT013 moving `freeze` last, fixes both hazards of
# `chain(freeze, sgd, add_decayed_weights)`; the other order leaves the decay after the scaling).
# Kept as it was; a rule not named here runs after these, in code order.
_RUN_FIRST = ("OPT001", "OPT002", "OPT004", "OPT003", "OPT005", "OPT006", "OPT008", "OPT014",
              "OPT017", "OPT015", "OPT016", "OPT018", "OPT010", "OPT011", "OPT007", "OPT012",
              "OPT021", "OPT019", "OPT022", "OPT009", "OPT013", "OPT020", "OPT023", "OPT024")


def _run_order(info: RuleInfo) -> tuple[int, str]:
    return (_RUN_FIRST.index(info.code) if info.code in _RUN_FIRST else len(_RUN_FIRST),
            info.code)


RULES: list[type[Rule]] = [rule_class(info) for info in sorted(RULE_INFOS, key=_run_order)]


def runtime_check(code: str) -> RuntimeCheck | None:
    """How `optlint verify` runs the findings of `code`, if it can."""
    return next((rule.runtime_check for rule in RULES if rule.code == code), None)
