"""Run ``shuangkou serve`` as a child process: for the restart tests and the load test.

    with ServerProcess(data_dir) as server:
        ...  # server.url, server.pid
        server.kill()            # SIGKILL: a crash
        server.start()           # the same database again
        server.terminate()       # SIGTERM: a graceful stop
        server.pause()           # SIGSTOP, then server.resume(): SIGCONT

The server listens on 127.0.0.1 only, on a free port chosen at the first start and kept
across restarts; its log (JSON lines) goes to ``server.log`` in the data directory.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from .settings import GUEST_WEALTH_VARIABLE, PER_ADDRESS_VARIABLES

__all__ = ["ServerProcess", "ServerStartError", "free_port"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerStartError(RuntimeError):
    """The server exited while starting, or did not answer in time (the message ends with its log's tail)."""


class _PortTaken(ServerStartError):
    """The port chosen for the server was taken by another process before the server bound it."""


_PORT_ATTEMPTS = 3
_ANNOUNCEMENT = "Shuangkou is running at"  # what ``shuangkou serve`` prints once it serves


class ServerProcess:
    """``python -m shuangkou serve`` on 127.0.0.1 with its own data directory."""

    def __init__(
        self,
        data_dir: Path,
        database_url: str | None = None,
        operator_token: str = "operator-secret",
        extra_args: list[str] | None = None,
        port: int | None = None,
        python: str | None = None,
        launcher: list[str] | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.database_url = database_url or f"sqlite:///{self.data_dir / 'shuangkou.db'}"
        self.operator_token = operator_token
        self.extra_args = list(extra_args or [])
        self.port = port or free_port()
        self._port_chosen = port is None  # a port of our choosing may be taken before the server binds it
        self.python = python or sys.executable  # another interpreter runs another installed copy
        self.launcher = list(launcher or [])  # a command the server runs under (valgrind, say)
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        """The process id of the running server."""
        assert self.process is not None, "start() first"
        return self.process.pid

    @property
    def log_path(self) -> Path:
        """The server's log file (standard output and error of every start)."""
        return self.data_dir / "server.log"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        """Start the server and wait until it says it serves and ``/healthz`` answers.

        Another process may take a port of this object's choosing between its choice and the
        server's bind (tests run side by side): the server then exits saying it cannot
        listen, and is started again on another free port. Its own announcement in its log,
        not only an answer on the port, tells that the answer comes from this server."""
        for _ in range(_PORT_ATTEMPTS - 1):
            try:
                return self._start(timeout)
            except _PortTaken:
                self.port = free_port()
        return self._start(timeout)

    def _start(self, timeout: float) -> ServerProcess:
        assert self.process is None or self.process.poll() is not None, "already running"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        command = [
            *self.launcher, self.python, "-m", "shuangkou", "serve",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--data-dir", str(self.data_dir), "--database-url", self.database_url,
            "--operator-token", self.operator_token, *self.extra_args,
        ]
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - kept open while the server runs
        log_start = self._log.tell()
        # Every client of a test or a load test comes from this one address: no limits per address;
        # and its guests play the wealth rooms with the rooms' starting balance.
        environment = {**os.environ, **{name: os.environ.get(name, "0") for name in PER_ADDRESS_VARIABLES}}
        environment.setdefault(GUEST_WEALTH_VARIABLE, "room")
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT, env=environment)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self._log_since(log_start)
                self._log.close()
                self._log = None
                if self._port_chosen and f"cannot listen on 127.0.0.1:{self.port}" in output:
                    raise _PortTaken(self.port)
                raise ServerStartError(f"the server exited with {self.process.returncode}:\n{self.log_tail()}")
            if _ANNOUNCEMENT in self._log_since(log_start):
                try:
                    self.get("/healthz")
                    return self
                except (OSError, urllib.error.URLError):
                    pass
            time.sleep(0.05)
        self.kill()
        raise ServerStartError(f"the server did not answer within {timeout} s:\n{self.log_tail()}")

    def _log_since(self, offset: int) -> str:
        """What the server wrote to its log from ``offset`` (where this start began)."""
        with open(self.log_path, "rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: the process dies at once, as in a crash."""
        self._stop(signal.SIGKILL, 10.0)

    def pause(self) -> None:
        """SIGSTOP: the process stands still (its timers, its Redis renewals) until :meth:`resume`."""
        assert self.process is not None, "start() first"
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after :meth:`pause`."""
        assert self.process is not None, "start() first"
        self.process.send_signal(signal.SIGCONT)

    def terminate(self, timeout: float = 15.0) -> int:
        """SIGTERM and wait for a graceful exit; returns the exit status."""
        return self._stop(signal.SIGTERM, timeout)

    def _stop(self, signum: int, timeout: float) -> int:
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signum)
        try:
            status = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait(10)
        if self._log is not None:
            self._log.close()
            self._log = None
        return status

    def log_tail(self, lines: int = 40) -> str:
        """The end of the server log."""
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def log_records(self) -> list[dict[str, Any]]:
        """The structured (JSON) lines of the server log."""
        records = []
        for line in self.log_path.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                try:
                    records.append(json.loads(line))
                except ValueError:
                    continue
        return records

    def log_errors(self) -> int:
        """How many errors the server logged: structured records at ERROR or CRITICAL, and
        uvicorn's own plain lines (``ERROR:    Exception in ASGI application``)."""
        plain = sum(
            line.startswith(("ERROR:", "CRITICAL:")) for line in self.log_path.read_text(errors="replace").splitlines()
        )
        return plain + sum(record.get("level") in ("ERROR", "CRITICAL") for record in self.log_records())

    def get(self, path: str, token: str | None = None) -> Any:
        """GET a JSON document from the server (``token``: the operator's by default for /api/admin)."""
        return self._request("GET", path, None, token)

    def post(self, path: str, data: dict[str, Any], token: str | None = None) -> Any:
        """POST a JSON document to the server."""
        return self._request("POST", path, data, token)

    def _request(self, method: str, path: str, data: dict[str, Any] | None, token: str | None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token is None and path.startswith("/api/admin"):
            token = self.operator_token
        if token:
            headers["Authorization"] = f"Bearer {token}"
        body = json.dumps(data).encode() if data is not None else None
        request = urllib.request.Request(self.url + path, data=body, headers=headers, method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.terminate()
