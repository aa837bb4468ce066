"""Which worker process analyses which document, and stopping an analysis nobody wants.

Documents up to the editor's `backgroundCharacters` (64 KiB unless set) share one long-lived worker: they take a fraction of a
second each, and its linters keep what the analysis read of other files between edits. A longer
document is analysed in a worker of its own, started for that one analysis and killed as soon as
the document changes or closes (or the analysis is done, so that its memory is returned): however
long it takes, it never holds up another document.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from optlint.server.documents import Subject
from optlint.server.findings import Checked
from optlint.server.projects import ClientSettings
from optlint.server.workers import Worker, WorkerGone

class Analyses:
    def __init__(self, log: Callable[[str], None]) -> None:
        self.client = ClientSettings()  # the editor's settings, for every worker
        self._log = log
        self._shared: Worker | None = None
        self._starting = asyncio.Lock()
        self._own: set[Worker] = set()  # the workers of analyses under way in the background

    def in_background(self, subject: Subject) -> bool:
        """Whether the subject is long enough to be checked in a worker of its own."""
        return len(subject.program) > self.client.background_characters

    async def lint(self, subject: Subject) -> Checked:
        """What the linter says about the subject's text. Cancelling the caller stops an
        analysis in the background (its worker is killed)."""
        result: Checked = await self._run(subject, "lint", subject.path, subject.program)
        return result

    async def fix(self, subject: Subject) -> str | None:
        """The subject's text after every safe fix; None when nothing changed."""
        result: str | None = await self._run(subject, "fix", subject.path, subject.program)
        return result

    async def reload(self) -> None:
        """Forget every project's settings (a configuration file changed)."""
        if self._shared is not None:
            await self._on_shared("reload")

    async def refresh(self, changed: Path) -> bool:
        """Forget what the analysis read of `changed`; whether open documents need linting again
        (a worker of its own always starts fresh, so only the shared one is asked)."""
        if self._shared is None:
            return True
        held: bool = await self._on_shared("refresh", changed)
        return held

    async def start(self) -> None:
        """Start the shared worker ahead of the first document."""
        await self._shared_worker()

    def stop(self) -> None:
        for worker in [*self._own, *([self._shared] if self._shared else [])]:
            worker.kill()

    async def _run(self, subject: Subject, job: str, *arguments: Any) -> Any:
        if self.in_background(subject):
            return await self._on_own(subject, job, *arguments)
        return await self._on_shared(job, *arguments)

    async def _shared_worker(self) -> Worker:
        async with self._starting:
            if self._shared is None or self._shared.killed:
                self._shared = await Worker.start("optlint-shared", self.client)
                self._log(f"optlint: the shared worker is {self._shared.pid}")
            return self._shared

    async def _on_shared(self, job: str, *arguments: Any) -> Any:
        """The job on the shared worker; if that worker has ended (killed from outside, out of
        memory), once more on a new one (a job that itself ends the worker is not looped on)."""
        try:
            return await self._on_shared_once(job, *arguments)
        except WorkerGone:
            return await self._on_shared_once(job, *arguments)

    async def _on_shared_once(self, job: str, *arguments: Any) -> Any:
        worker = await self._shared_worker()
        try:
            return await worker.call(job, *arguments)
        except WorkerGone:
            worker.kill()
            raise

    async def _on_own(self, subject: Subject, job: str, *arguments: Any) -> Any:
        name = subject.path.name
        worker = await Worker.start(f"optlint-{job}-{name}", self.client)
        self._own.add(worker)
        self._log(f"optlint: {job} of {name} ({len(subject.program):,} characters) runs in "
                  f"the background in worker {worker.pid}")
        try:
            return await worker.call(job, *arguments)
        except asyncio.CancelledError as stopped:
            why = f" ({stopped.args[0]})" if stopped.args else ""
            self._log(f"optlint: {job} of {name} cancelled{why}: worker {worker.pid} killed")
            raise
        finally:
            worker.kill()  # done or cancelled: its memory goes back to the system
            self._own.discard(worker)
