"""The rule registry: the class of every rule in the catalog (optlint.catalog, importable without
libcst), found in the module its row names. A new rule is a catalog row and its own module; no
list here to extend.

A rule's module is imported when the rule is first asked for (`classes_for`): importing the
registry, or `optlint.rules.base`, imports no rule, and a run with `--select` imports only the
rules it selected. `RULES`, every class, imports them all.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from optlint.catalog import (  # noqa: F401 - the registry is named from here too
    RULE_INFOS,
    SYNTAX_ERROR,
    UNUSED_NOQA,
    RuleInfo,
    all_codes,
    catalog,
    info_of,
    rule_module,
)
from optlint.rules.base import Rule, RuntimeCheck


def rule_class(info: RuleInfo) -> type[Rule]:
    """The class of the module `info` names whose code is `info`'s."""
    name = rule_module(info)
    # An import statement's path rather than `importlib.import_module`'s: in a `check`, optlint's
    # modules come from the bundle that way without importlib's machinery (bundled_imports.py).
    __import__(name)
    module = sys.modules[name]
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


_IN_RUN_ORDER: tuple[RuleInfo, ...] = tuple(sorted(RULE_INFOS, key=_run_order))
# Each rule's class once its module has been imported, by code.
_loaded: dict[str, type[Rule]] = {}


def classes_for(codes: Iterable[str]) -> list[type[Rule]]:
    """The classes of the rules of `codes`, in the order rules run, each rule's module imported
    the first time it is asked for."""
    wanted = set(codes)
    classes = []
    for info in _IN_RUN_ORDER:
        if info.code in wanted:
            if info.code not in _loaded:
                _loaded[info.code] = rule_class(info)
            classes.append(_loaded[info.code])
    return classes


def __getattr__(name: str) -> list[type[Rule]]:
    """`RULES`: every rule's class, in the order rules run (importing every rule)."""
    if name == "RULES":
        return classes_for(info.code for info in RULE_INFOS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def runtime_check(code: str) -> RuntimeCheck | None:
    """How `optlint verify` runs the findings of `code`, if it can."""
    info = info_of(code)
    return classes_for([code])[0].runtime_check if info is not None else None
