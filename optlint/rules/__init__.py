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


RULES: list[type[Rule]] = [rule_class(info) for info in RULE_INFOS]


def runtime_check(code: str) -> RuntimeCheck | None:
    """How `optlint verify` runs the findings of `code`, if it can."""
    return next((rule.runtime_check for rule in RULES if rule.code == code), None)
