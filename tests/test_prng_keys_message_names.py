"""OPT020's message names the key as the code spells it, and says where the name came from when
the key was made under another name (a scan's initial carry built from a used key)."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_findings

CARRY = '''\
import jax


def init_particles(key, n):
    return jax.random.normal(key, (n,))


def step(carry, x):
    particles, key = carry
    key, sub = jax.random.split(key)
    return (particles + jax.random.normal(sub, particles.shape), key), x


def run(xs, seed):
    key = jax.random.key(seed)
    particles = init_particles(key, 8)
    init = (particles, key)
    return jax.lax.scan(step, init, xs)
'''


def test_an_item_of_a_carry_is_named_as_written_and_its_name_placed_after_the_key(
        tmp_path: Path) -> None:
    [finding] = opt020_findings(tmp_path, "carry.py", CARRY)
    message = finding["message"]
    assert message.startswith("`init[1]` (held under this name from line 17) was already "
                              "consumed by `init_particles(key, 8)` (line 16)"), message
    assert ".[" not in message


def test_a_key_made_and_consumed_under_one_name_keeps_its_path(tmp_path: Path) -> None:
    source = CARRY.replace("    init = (particles, key)\n    return jax.lax.scan(step, init, xs)",
                           "    return jax.random.normal(key, (8,)) + particles")
    [finding] = opt020_findings(tmp_path, "plain.py", source)
    assert finding["message"].startswith("`key` (made at line 15) was already consumed by "
                                         "`init_particles(key, 8)` (line 16)"), finding["message"]



def test_a_literal_seed_is_named_as_written() -> None:
    # Seeds given to a library's seeding call (`handlers.seed(model, rng_seed=0)`) are followed
    # internally as `int:0`; the message names the seed as the code writes it.
    import libcst as cst

    from optlint.analysis.prng_keys import Consumption
    from optlint.rule_helpers.key_messages import key_text

    call = cst.parse_expression("handlers.seed(model, rng_seed=0)")
    assert isinstance(call, cst.Call)
    use = Consumption(call, call.args[1].value, "handlers.seed", followed="int:0")
    assert key_text(None, use) == "0"  # type: ignore[arg-type]
