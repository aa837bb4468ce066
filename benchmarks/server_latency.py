"""How long an edit to a small file waits for its diagnostics while a big file is open in
`optlint server` (issue 21): a raw LSP client over stdio opens a small file, then a big one
(copies of `latency_train.py`, 1.5 MB by default), edits the small file while the big one is
being analysed, and prints the time to its diagnostics and to a hover answer.

    python benchmarks/server_latency.py [--megabytes 1.5]
"""

from __future__ import annotations

import argparse
import json
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

TRAIN = Path(__file__).with_name("latency_train.py")
SMALL = ("import optax\n\n\ndef decay_mask(params):\n    return params\n\n\n"
         "optimizer = optax.inject_hyperparams(optax.adamw)(learning_rate=1e-3, mask=decay_mask)\n")


def big_program(megabytes: float) -> str:
    """Copies of the 200-line training script, each under its own names, so the file is one
    program of `megabytes` that the analysis must read whole."""
    train = TRAIN.read_text(encoding="utf-8")
    copies = max(1, round(megabytes * 2**20 / len(train)))
    return "".join(train.replace("Model", f"Model{n}").replace("Config", f"Config{n}")
                   for n in range(copies))


class Client:
    """JSON-RPC frames to and from `optlint server`; messages are read on a thread."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "optlint", "server"], cwd=root,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while (line := stream.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if length is None:
                return
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> int:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.next_id

    def wait_for(self, matches: Any, timeout: float) -> dict[str, Any]:
        """The first message `matches`; requests from the server are answered with null."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
            self.seen.append(message)
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": None})
            if matches(message):
                return message

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def diagnostics_for(uri: str, version: int | None = None) -> Any:
    def matches(message: dict[str, Any]) -> bool:
        params = message.get("params") or {}
        return (message.get("method") == "textDocument/publishDiagnostics"
                and params.get("uri") == uri
                and (version is None or params.get("version") == version))
    return matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=1.5)
    parser.add_argument("--timeout", type=float, default=180)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "pyproject.toml").write_text("[tool.optlint]\n")
        small, big = root / "small.py", root / "big.py"
        small.write_text(SMALL)
        text = big_program(arguments.megabytes)
        big.write_text(text)
        client = Client(root)
        try:
            client.request("initialize", {"processId": None, "rootUri": root.as_uri(),
                                          "capabilities": {"window": {"workDoneProgress": True}}})
            client.wait_for(lambda m: m.get("id") == 1, 60)
            client.send({"method": "initialized", "params": {}})
            client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": small.as_uri(), "languageId": "python", "version": 1, "text": SMALL}}})
            client.wait_for(diagnostics_for(small.as_uri()), 60)
            client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": big.as_uri(), "languageId": "python", "version": 1, "text": text}}})
            time.sleep(1.0)  # the big file's analysis is under way
            # An edit, and a hover at once (its lint of the new text cannot wait for the
            # debounce): both are timed from the edit.
            started = time.monotonic()
            client.send({"method": "textDocument/didChange", "params": {
                "textDocument": {"uri": small.as_uri(), "version": 2},
                "contentChanges": [{"text": SMALL + "x = 1\n"}]}})
            asked = client.request("textDocument/hover", {
                "textDocument": {"uri": small.as_uri()},
                "position": {"line": 7, "character": 20}})
            times: dict[str, float] = {}
            while len(times) < 2:
                message = client.wait_for(lambda m: diagnostics_for(small.as_uri(), 2)(m)
                                          or m.get("id") == asked, arguments.timeout)
                times["hover" if message.get("id") == asked else "edit"] = \
                    time.monotonic() - started
            edit, hovered = times["edit"], times["hover"]
            print(f"big file: {len(text.encode()) / 2**20:.2f} MB, {text.count(chr(10))} lines")
            print(f"edit of a small file -> its diagnostics: {edit:.2f} s")
            print(f"hover on the small file: {hovered:.2f} s")
        finally:
            client.close()


if __name__ == "__main__":
    main()
