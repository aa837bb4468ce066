"""The lazy rule registry: a rule's module is imported when the rule is first asked for, and what
the registry says of each rule (its catalog row) is what the imported class says."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import textwrap
from pathlib import Path

import optlint.rules
from optlint.catalog import RULE_INFOS, rule_module
from optlint.rules import classes_for
from optlint.rules.base import Rule


def _every_rule_class_in_the_package() -> set[type[Rule]]:
    """Every Rule subclass with a code defined in a module of optlint/rules/, found by importing
    each module there (not through the registry)."""
    found: set[type[Rule]] = set()
    for module_info in pkgutil.iter_modules(optlint.rules.__path__):
        module = importlib.import_module(f"optlint.rules.{module_info.name}")
        found |= {value for value in vars(module).values()
                  if isinstance(value, type) and issubclass(value, Rule)
                  and value.__module__ == module.__name__ and "code" in value.__dict__}
    return found


def test_the_lazy_registry_finds_every_rule_class_and_nothing_else() -> None:
    registered = classes_for(info.code for info in RULE_INFOS)
    assert set(registered) == _every_rule_class_in_the_package()
    assert len(registered) == len(RULE_INFOS)


def test_each_rules_row_is_its_imported_class() -> None:
    for info in RULE_INFOS:
        [rule] = classes_for([info.code])
        assert (rule.code, rule.name, rule.summary, rule.fix_availability, rule.trigger_words,
                rule.__module__) == (info.code, info.name, info.summary, info.fix_availability,
                                     info.trigger_words, rule_module(info))


def test_rules_come_in_the_order_they_run_whatever_order_they_are_asked_in() -> None:
    codes = [info.code for info in RULE_INFOS]
    assert classes_for(reversed(codes)) == classes_for(codes) == optlint.rules.RULES


# A fresh interpreter checks one file and reports which rule modules it imported.
PROBE = textwrap.dedent("""
    import sys
    from optlint.check_command import run_plain
    run_plain(["--no-cache", "--exit-zero", "-q", *sys.argv[1:]])
    print("RULES", " ".join(sorted(name.rsplit(".", 1)[1] for name in sys.modules
                                    if name.startswith("optlint.rules."))))
""")


def test_a_check_imports_the_rules_it_selected_and_no_other(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("import optax\n\nopt = optax.adam(1e-3)\n")

    def imported(*args: str) -> set[str]:
        done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=tmp_path, text=True,
                              capture_output=True, timeout=120)
        assert "RULES " in done.stdout, done.stdout + done.stderr
        return set(done.stdout.rsplit("RULES ", 1)[1].split())

    assert imported("--select", "OPT003", "train.py") == {"base", "unfiltered_equinox_model"}
    assert {"unfiltered_equinox_model", "prng_key_reuse"} <= imported("train.py")
