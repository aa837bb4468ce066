"""A name bound many times in one function is resolved through each of its bindings, and each of
those through the others: the work grew exponentially with the number of bindings (one question
on JaxMARL's `storm_env.py` ran for minutes). One question may resolve at most
`BINDINGS_PER_QUESTION` bindings; what a file reports otherwise stays the same."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import optlint.analysis.project_values as project_values
from conftest import run_optlint_in_process


def rebound_state(bindings: int) -> str:
    """`state = state.replace(...)` `bindings` times, then a key drawn from twice."""
    lines = ["import jax", "", "", "def step(state, key):"]
    lines += [f"    state = state.replace(a{i}=state.a{i} + 1)" for i in range(bindings)]
    # Whether the first draw reaches a result asks what `state.update` is.
    lines += ["    noise = jax.random.normal(key)",
              "    state.update(noise)",
              "    again = jax.random.normal(key)",
              "    return state, again", ""]
    return "\n".join(lines)


def test_a_question_resolves_a_bounded_number_of_bindings(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    ask = project_values.ProjectValues._binding
    resolve = project_values.ProjectValues._bound_value
    per_question: list[int] = []

    def asked(self: project_values.ProjectValues, *args: object) -> object:
        if not self._pending:  # a new question
            per_question.append(0)
        return ask(self, *args)  # type: ignore[arg-type]

    def resolved(self: project_values.ProjectValues, *args: object) -> object:
        per_question[-1] += 1
        return resolve(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(project_values.ProjectValues, "_binding", asked)
    monkeypatch.setattr(project_values.ProjectValues, "_bound_value", resolved)
    # Eight bindings: 27,400 resolutions in one question without the bound (measured);
    # each more binding multiplied that by about ten.
    (tmp_path / "step.py").write_text(rebound_state(8))
    done = run_optlint_in_process("check", "step.py", "--no-cache", "--isolated", "--jobs", "1",
                                  "--output-format", "json", cwd=tmp_path)
    assert per_question, "the file's names were never resolved"
    assert max(per_question) <= project_values.BINDINGS_PER_QUESTION
    # The analysis still ran to the end: the key drawn from twice is reported.
    assert [(item["code"], item["line"]) for item in json.loads(done.stdout)] == [("OPT020", 15)]
