"""The "keys" runtime check (OPT020): the planner's slice of a key's data flow (no JAX), and the
rule's fixtures verified in-process (one harness subprocess per file, real JAX on CPU). The CLI
end to end is `verify --rules` in test_verify.py (OPT020's page: confirmed)."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from conftest import FIXTURES
from verify_helpers import CACHE

from optlint.engine import Linter
from optlint.verify.command import VerifyRequest, fix_options
from optlint.verify.plan import Planner
from optlint.verify.session import RunSettings, verify_source
from optlint.verify.verdict import Verdict

OPTIONS = fix_options(VerifyRequest([], select=["OPT020"]))


def plans(source: str) -> list[dict]:  # type: ignore[type-arg]
    source = textwrap.dedent(source)
    linter = Linter(OPTIONS)
    linted = linter.analyse_text(source, "train.py")
    planner = Planner(linted, linter.fix_text(source, "train.py").fixed)
    return [planner.plan(number, report).spec()  # type: ignore[union-attr]
            for number, report in enumerate(linted.reports)]


def codes(variant: dict) -> list[str]:  # type: ignore[type-arg]
    return [statement["code"] for statement in variant["statements"]]


def test_the_finding_carries_both_consumers_and_their_keys() -> None:
    source = ("import jax\n\ndef f(key):\n    a = jax.random.normal(key)\n"
              "    b = jax.random.uniform(key)\n    return a, b\n")
    linted = Linter(OPTIONS).analyse_text(source, "train.py")
    [diagnostic] = linted.diagnostics
    shown = {role.name: (role.text, role.start.line if role.start else None)
             for role in diagnostic.roles}
    assert shown == {"call": ("jax.random.uniform(key)", 5), "key": ("key", 5),
                     "first_call": ("jax.random.normal(key)", 4), "first_key": ("key", 4),
                     "key_origin": ("key", 3)}


def test_slice_keeps_the_key_statements_and_the_consumers_only() -> None:
    [plan] = plans('''\
        import jax
        import numpy as np

        def sample(config, rng):
            data = np.load(config.path)
            rng, init_rng = jax.random.split(rng)
            noise = jax.random.normal(init_rng, data.shape)
            print(noise)
            mask = jax.random.bernoulli(init_rng, 0.5, data.shape)
            return noise * mask
        ''')
    assert plan["kind"] == "keys" and plan["probe"] == "prng_keys:keys_differ"
    original = plan["variants"]["original"]
    assert original["bindings"]["rng"] == "key"
    body = codes(original)[1:]  # after the recorder
    assert body == [
        "import jax\n",
        "rng, init_rng = jax.random.split(rng)\n",
        "__optlint_consume__('first', init_rng, lambda: jax.random.normal(init_rng, data.shape))\n",
        "__optlint_consume__('second', init_rng, lambda: jax.random.bernoulli(init_rng, 0.5, "
        "data.shape))\n"]
    assert not any("np.load" in code or "print" in code for code in codes(original))
    # The fix splits `init_rng` before the first consumer: found again in the fixed source.
    fixed = codes(plan["variants"]["fixed"])
    assert "init_rng, subkey = jax.random.split(init_rng)\n" in fixed
    assert any(code.startswith("__optlint_consume__('first', subkey,") for code in fixed)


def test_a_reuse_across_iterations_runs_the_loop_body_twice() -> None:
    [plan] = plans('''\
        import jax

        def run(key, n):
            xs = []
            for step in range(n):
                xs.append(jax.random.normal(key, (2,)))
                key = jax.random.fold_in(key, step)
                xs.append(jax.random.uniform(key, (2,)))
            return xs
        ''')
    body = codes(plan["variants"]["original"])[2:]  # after the recorder and the import
    assert body == ["step = 0\n",
                    "__optlint_consume__('second', key, lambda: jax.random.normal(key, (2,)))\n",
                    "key = jax.random.fold_in(key, step)\n",
                    "__optlint_consume__('first', key, lambda: jax.random.uniform(key, (2,)))\n",
                    # (`step = 1` too, were it read before the second consumer)
                    "__optlint_consume__('second', key, lambda: jax.random.normal(key, (2,)))\n"]
    assert "fixed" not in plan["variants"]  # no fix in a loop


def test_a_key_split_from_a_parameter_has_a_stand_in_whatever_its_name() -> None:
    [plan] = plans('''\
        import jax

        def fresh(seed_array, n):
            for _ in range(n):
                seed_array, sub = jax.random.split(seed_array)
                x = jax.random.normal(sub)
                y = jax.random.normal(sub)
            return x + y
        ''')
    original = plan["variants"]["original"]
    assert original["bindings"] == {"seed_array": "key", "__optlint_keys__": "self"}
    assert "_ = 0\n" not in codes(original)  # the loop's target is read by no key statement


def test_a_key_made_in_a_match_case_is_sliced() -> None:
    [plan] = plans('''\
        import jax.random as jrandom

        def data(kind, n):
            match kind:
                case "uniform":
                    key = jrandom.PRNGKey(0)
                    x = jrandom.uniform(key, (n,))
                    y = jrandom.uniform(key, (n,))
            return x, y
        ''')
    original = plan["variants"]["original"]
    assert "unbuildable" not in original and "key = jrandom.PRNGKey(0)\n" in codes(original)


def test_a_key_stored_on_a_module_is_not_planned() -> None:
    text = (FIXTURES / "OPT020" / "fields.py").read_text()
    assert {plan["variants"]["original"].get("unbuildable") for plan in plans(text)} == {
        "the finding names no earlier consumer of its key"}


# verified (JAX) --------------------------------------------------------------------------------
@pytest.fixture(autouse=False)
def jax_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPTLINT_CACHE_DIR", str(CACHE))


def verified(path: Path) -> dict[int, Verdict]:
    text = path.read_text()
    linter = Linter(OPTIONS)
    linted = linter.analyse_text(text, str(path))
    found = verify_source(linted, linter.fix_text(text, str(path)).fixed,
                          RunSettings(device="cpu", timeout=300), path.parent)
    assert len(found) == len(linted.diagnostics)
    return {verdict.diagnostic.start.line: verdict for verdict in found}


def test_fixtures_are_confirmed_and_their_fixes_draw_different_keys(
        tmp_path: Path, jax_cache: None) -> None:
    for name in ("positives.py", "modules.py", "_sampling.py"):
        shutil.copy(FIXTURES / "OPT020" / name, tmp_path / name)
    for name, fixed in (("positives.py", {9, 16, 22, 28, 34}), ("modules.py", {13, 18, 28, 34, 40})):
        verdicts = verified(tmp_path / name)
        assert {line: v.verdict for line, v in verdicts.items()} == {
            line: "confirmed" for line in fixed}, name
        for verdict in verdicts.values():
            assert verdict.original is not None and verdict.original["status"] == "misbehaved"
            assert "were given the same key" in verdict.original["detail"]
            assert verdict.fixed is not None and verdict.fixed["status"] == "ok", verdict.reason
            assert "2 different keys" in verdict.fixed["detail"]
    # A parameter's key is a stand-in, and the real calls run where their arguments are built.
    first = verified(tmp_path / "positives.py")[9]
    assert first.notes == ["stand-in key"]
    assert "ran here" not in first.original["detail"]  # type: ignore[index]


def test_loops_and_a_parameter_named_anyhow_are_confirmed(tmp_path: Path, jax_cache: None) -> None:
    shutil.copy(FIXTURES / "OPT020" / "loops.py", tmp_path / "loops.py")
    (tmp_path / "seeds.py").write_text(textwrap.dedent('''\
        import jax

        def draw(seed_array, n):
            a = jax.random.normal(seed_array, (n,))
            b = jax.random.uniform(seed_array, (n,))
            return a, b

        def fresh(seed_array, n):
            for _ in range(n):
                seed_array, sub = jax.random.split(seed_array)
                x = jax.random.normal(sub)
                y = jax.random.normal(sub)
            return x + y
        '''))
    loops = verified(tmp_path / "loops.py")
    assert {line: v.verdict for line, v in loops.items()} == {
        line: "confirmed" for line in (7, 13, 21, 28, 33, 41, 48, 57)}
    assert "`jax.random.normal(key, (8,))` was given the same key twice" in (
        loops[13].reason)
    # Folded with the step, the key differs per iteration; the first consumer of the previous
    # iteration still shares it with the second.
    assert "`jax.random.uniform(key, (2,))` and `jax.random.normal(key, (2,))`" in loops[48].reason
    seeds = verified(tmp_path / "seeds.py")
    assert {line: v.verdict for line, v in seeds.items()} == {5: "confirmed", 12: "confirmed"}
    assert seeds[5].fixed is not None and seeds[5].fixed["status"] == "ok"
    assert seeds[5].notes == ["stand-in key"]
    # The stand-in key is typed: where the consumers can run, JAX's own key-reuse checker
    # confirms the reuse.
    (tmp_path / "checked.py").write_text(textwrap.dedent('''\
        import jax

        def draw(key):
            a = jax.random.normal(key, (2,))
            b = jax.random.uniform(key, (2,))
            return a, b
        '''))
    checked = verified(tmp_path / "checked.py")
    assert "raised KeyReuseError at `jax.random.uniform(key, (2,))`" in checked[5].reason
    assert checked[5].fixed is not None and checked[5].fixed["status"] == "ok"


def test_a_key_split_in_a_one_line_block_is_sliced() -> None:
    [plan] = plans('''\
        import jax

        def one_line(key, path):
            with open(path): sub = jax.random.split(key)[0]
            a = jax.random.normal(sub)
            b = jax.random.uniform(sub)
            return a, b
        ''')
    original = plan["variants"]["original"]
    assert "sub = jax.random.split(key)[0]\n" in codes(original)
    assert original["bindings"]["key"] == "key"


def test_a_key_split_from_what_a_method_of_the_object_returns_is_planned() -> None:
    """blackjax's tests split `self.next_key()`: the slice asks for `self.next_key`, an attribute
    of `self` (this crashed the whole `verify` run, `Name('self.next_key')`); it is said missing,
    as any attribute `__init__` or `setUp` does not set (a method is not sliced)."""
    [plan] = plans('''\
        import jax

        class TestSampler:
            def next_key(self):
                self.key, sub = jax.random.split(self.key)
                return sub

            def test_two_chains(self):
                key1, key2 = jax.random.split(self.next_key())
                a = jax.random.normal(key1, (3,))
                b = jax.random.normal(key1, (3,))
                return a, b
        ''')
    assert plan["variants"]["original"] == {
        "unbuildable": "missing `self.next_key` (not set in __init__ or setUp)"}


def test_a_test_class_key_set_in_set_up_is_sliced_from_there() -> None:
    """blackjax's unittest classes make `self.key` in `setUp`, which runs before each test."""
    [plan] = plans('''\
        import unittest
        import jax

        class TestSampler(unittest.TestCase):
            def setUp(self):
                self.key = jax.random.key(10)

            def test_two_draws(self):
                a = jax.random.normal(self.key, (3,))
                b = jax.random.uniform(self.key, (3,))
                return a, b
        ''')
    original = plan["variants"]["original"]
    assert "self.key = jax.random.key(10)" in "".join(codes(original)), original
