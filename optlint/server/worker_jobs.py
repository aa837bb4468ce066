"""What runs inside an analysis worker process: a loop that takes one job at a time from the
server (lint a text, fix a text, forget settings or what the analysis read) and sends back its
answer.

The worker holds the projects' settings and linters, so the files a document's analysis read
(an imported model class) stay parsed between edits, as they did when the server linted in a
thread. A job that fails answers with its traceback; the worker goes on with the next job.
"""

from __future__ import annotations

import itertools
import os
import select
import threading
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from optlint.server.findings import Checked, check
from optlint.server.projects import ClientSettings, Projects


def lint(projects: Projects, path: Path, program: str) -> Checked:
    """What the linter says about `program`, the editor's text of the file at `path`."""
    try:
        project = projects.for_file(path)
    except Exception as error:  # noqa: BLE001 - shown on the file; the worker goes on
        return Checked([], [f"optlint could not load the settings for this file: {error!r}"])
    if project.excludes(path):
        return Checked([], [])
    return check(project, program, str(path))


def fix(projects: Projects, path: Path, program: str) -> str | None:
    """The text after every safe fix, as `check --fix` makes them; None when nothing changed."""
    return projects.for_file(path).linter.fix_text(program, str(path)).fixed


def reload(projects: Projects) -> None:
    projects.reload()


def refresh(projects: Projects, changed: Path) -> bool:
    return projects.refresh(changed)


JOBS: dict[str, Callable[..., Any]] = {
    "lint": lint, "fix": fix, "reload": reload, "refresh": refresh}


def serve(connection: Connection, client: ClientSettings) -> None:
    """The worker's life: answer jobs until the server closes the connection (or kills it)."""
    projects = Projects()
    projects.client = client
    jobs = itertools.count(1)
    running = [0]  # the number of the job under way; 0 between jobs
    if os.name == "posix":  # select() reads pipes there; elsewhere a worker ends at its next read
        threading.Thread(target=_end_with_server, args=(connection, running),
                         daemon=True).start()
    while True:
        try:
            name, arguments = connection.recv()
        except (EOFError, OSError):
            return
        running[0] = next(jobs)
        try:
            answer: tuple[str, Any] = ("done", JOBS[name](projects, *arguments))
        except Exception:  # noqa: BLE001 - the server reports it; the next job still runs
            answer = ("failed", traceback.format_exc())
        running[0] = 0
        connection.send(answer)


def _end_with_server(connection: Connection, running: list[int]) -> None:
    """A server killed outright (an editor crashing) cannot kill its workers, and one in the
    middle of a long analysis reads nothing from it: it ends when its connection to the server
    does. The server sends nothing while a job runs (it waits for the answer), so the
    connection becomes readable during a job only when the server has gone."""
    while True:
        job = running[0]
        readable, _, _ = select.select([connection], [], [], 1.0)
        if readable and job and running[0] == job:
            os._exit(0)
        if readable and not job:
            threading.Event().wait(0.2)  # between jobs: the loop reads it itself
