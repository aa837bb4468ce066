"""Analysis worker processes, seen from the server: start one, give it a job, kill it.

Linting runs in separate processes, so that the server's own process only reads the editor's
messages and answers from results: a long analysis can then be stopped at once (a killed
process stops; a thread cannot be), and its memory goes back to the system with it. Workers are
forked from a fork server that has already imported the linter, so a new one is ready in
milliseconds rather than the second an interpreter takes to import libcst.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from multiprocessing.context import ForkServerContext, SpawnContext
from typing import Any

from optlint.server.projects import ClientSettings

# Imported once by the fork server, so each worker starts with them (a missing one is skipped).
_PRELOAD = ["optlint.server.worker_jobs", "optlint.rules", "optlint.parsing", "libcst"]
_context: ForkServerContext | SpawnContext | None = None


class WorkerGone(Exception):
    """The worker ended (killed, or crashed) before it answered."""


class JobFailed(Exception):
    """The job raised in the worker; the message is its traceback."""


def _start_method() -> ForkServerContext | SpawnContext:
    global _context
    if _context is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            _context = multiprocessing.get_context("forkserver")
            _context.set_forkserver_preload(_PRELOAD)
        else:  # Windows: each worker imports the linter itself
            _context = multiprocessing.get_context("spawn")
    return _context


class Worker:
    """One worker process, doing one job at a time in the order they are asked."""

    def __init__(self, name: str, client: ClientSettings) -> None:
        from optlint.server.worker_jobs import serve

        context = _start_method()
        self._connection, theirs = context.Pipe()
        self.process = context.Process(target=serve, args=(theirs, client), name=name,
                                       daemon=True)
        self._theirs = theirs
        self._turn = asyncio.Lock()
        self._answering: asyncio.Future[tuple[str, Any]] | None = None
        self.killed = False

    @classmethod
    async def start(cls, name: str, client: ClientSettings) -> Worker:
        """A started worker (starting one waits for the fork server: off the event loop)."""
        worker = cls(name, client)
        starting = asyncio.get_running_loop().run_in_executor(None, worker._start)
        try:
            await asyncio.shield(starting)
        except asyncio.CancelledError:  # not wanted any more: stopped as soon as it is up
            starting.add_done_callback(lambda _: worker.kill())
            raise
        return worker

    def _start(self) -> None:
        self.process.start()
        self._theirs.close()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    async def call(self, job: str, *arguments: Any) -> Any:
        """The job's answer. Cancelling the caller does not cancel the job (the worker is still
        busy with it: the next job waits for its answer to be read); `kill` does."""
        trip = asyncio.ensure_future(self._round_trip(job, arguments))
        # An answer nobody waits for any more (a cancelled caller) is read and dropped quietly.
        trip.add_done_callback(lambda done: done.cancelled() or done.exception())
        return await asyncio.shield(trip)

    async def _round_trip(self, job: str, arguments: tuple[Any, ...]) -> Any:
        async with self._turn:
            if self.killed:
                raise WorkerGone(f"worker {self.pid} was stopped")
            try:
                self._connection.send((job, arguments))
            except OSError as error:
                raise WorkerGone(f"worker {self.pid} ended: {error}") from error
            status, value = await self._answer()
        if status == "failed":
            raise JobFailed(value)
        return value

    async def _answer(self) -> tuple[str, Any]:
        loop = asyncio.get_running_loop()
        answered: asyncio.Future[tuple[str, Any]] = loop.create_future()
        descriptor = self._connection.fileno()

        def readable() -> None:
            loop.remove_reader(descriptor)
            if answered.done():
                return
            try:
                answered.set_result(self._connection.recv())
            except (EOFError, OSError) as error:
                answered.set_exception(WorkerGone(f"worker {self.pid} ended: {error!r}"))

        loop.add_reader(descriptor, readable)
        self._answering = answered
        try:
            return await answered
        finally:
            self._answering = None
            if not self._connection.closed:
                loop.remove_reader(descriptor)

    def kill(self) -> None:
        """Stop the worker now, whatever it is doing; a job waiting on it raises WorkerGone."""
        if self.killed:
            return
        self.killed = True
        if self.process.pid is not None and self.process.exitcode is None:
            self.process.kill()
        if self._answering is not None and not self._answering.done():
            self._answering.set_exception(WorkerGone(f"worker {self.pid} was stopped"))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None and not self._connection.closed:
            loop.remove_reader(self._connection.fileno())
        self._connection.close()
        if self.process.pid is not None:
            # Reaped off the event loop: the fork server reports the exit within milliseconds.
            if loop is not None:
                loop.run_in_executor(None, self.process.join, 5)
            else:
                self.process.join(5)
