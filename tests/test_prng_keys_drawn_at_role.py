"""OPT020's roles for a key drawn in every step or row of a loop or batching call reported at
that call (issue #25: a finding carries the key's path): the draw inside the function the call
runs is the role `drawn_at` (jaxppo 926ce21, held-out set 3: a `functools.partial` binding
`action_key` into a `jax.lax.scan` body, whose draw `pi.sample(seed=action_key)` is forty
lines above the body's definition and 460 above the scan)."""

from __future__ import annotations

from pathlib import Path

from conftest import finding_line, opt020_findings

PARTIAL_SCAN = '''\
from functools import partial

import jax


def _step(carry, _, key):
    noise = jax.random.normal(key, ())
    return carry + noise, noise


def train(key):
    step = partial(_step, key=key)
    return jax.lax.scan(step, 0.0, None, 10)
'''

BROADCAST = '''\
import jax


def body(x, key):
    return x + jax.random.normal(key, ())


def run(xs, key):
    return jax.vmap(body, in_axes=(0, None))(xs, key)
'''

def _drawn_at(findings: list[dict]) -> list[tuple[int, int | None]]:
    return [(finding_line(f), f["roles"].get("drawn_at", {}).get("line")) for f in findings]


def test_a_key_bound_into_a_scan_body_points_at_the_draw(tmp_path: Path) -> None:
    assert _drawn_at(opt020_findings(tmp_path, "train.py", PARTIAL_SCAN)) == [(13, 7)]


def test_a_key_broadcast_by_vmap_points_at_the_draw(tmp_path: Path) -> None:
    assert _drawn_at(opt020_findings(tmp_path, "run.py", BROADCAST)) == [(9, 5)]

