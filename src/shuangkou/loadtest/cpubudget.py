"""A CPU budget for a process and its children: a Linux control group of its own.

The load test runs a cluster's nodes on one machine, beside PostgreSQL, Redis and its own
bots, so a second node there takes its core from the others rather than bringing one.
With ``--node-cpu`` each server it starts gets a budget of its own, as if each ran on a
machine of that size, and adding a node adds that much CPU (see docs/deployment.md).

The group's quota is counted in short periods (:data:`PERIOD_US`), so a process that uses
its budget early in a period waits milliseconds, not the 100 ms of the kernel's default
period. Both versions of the control-group file system are supported: version 1's ``cpu``
controller (``cpu.cfs_quota_us``) and version 2's ``cpu.max``; creating a group takes root.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Final

__all__ = ["PERIOD_US", "CpuBudget", "CpuBudgetError"]

PERIOD_US: Final = 10_000
"""The period over which a group's quota is counted, in microseconds."""

_V1: Final = Path("/sys/fs/cgroup/cpu")
_V2: Final = Path("/sys/fs/cgroup")


class CpuBudgetError(RuntimeError):
    """No CPU budget can be set here (no writable control group with the cpu controller)."""


class CpuBudget:
    """A control group named ``name`` whose processes together use at most ``cores`` of CPU
    time (0.5: half of one core). :meth:`add` puts a process in it (its threads, and the
    children it starts from then on); :meth:`close` removes the group once they have ended."""

    def __init__(self, cores: float, name: str) -> None:
        if cores <= 0:
            raise CpuBudgetError(f"a CPU budget must be above 0 cores, not {cores}")
        self.cores = cores
        quota = max(1000, round(cores * PERIOD_US))  # the kernel's least quota is 1 ms
        try:
            if (_V1 / "cpu.cfs_quota_us").exists():
                self.path = _V1 / name
                self.path.mkdir()
                (self.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (self.path / "cpu.cfs_quota_us").write_text(str(quota))
            elif "cpu" in _read(_V2 / "cgroup.controllers").split():
                if "cpu" not in _read(_V2 / "cgroup.subtree_control").split():
                    (_V2 / "cgroup.subtree_control").write_text("+cpu")
                self.path = _V2 / name
                self.path.mkdir()
                (self.path / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            else:
                raise CpuBudgetError("this machine's control groups have no cpu controller")
        except OSError as problem:
            raise CpuBudgetError(f"cannot set a CPU budget ({problem}); it needs root and Linux control groups") \
                from None

    def add(self, pid: int) -> None:
        """Put the process ``pid`` (all its threads) in the group."""
        (self.path / "cgroup.procs").write_text(str(pid))

    def release(self, pid: int) -> None:
        """Move the process ``pid`` back to the group above (so that the group can close while it runs on)."""
        (self.path.parent / "cgroup.procs").write_text(str(pid))

    def pids(self) -> list[int]:
        """The processes in the group."""
        return [int(line) for line in _read(self.path / "cgroup.procs").split()]

    def throttled(self) -> int:
        """How many periods the group was held back in, having used its quota."""
        for line in _read(self.path / "cpu.stat").splitlines():
            key, _, value = line.partition(" ")
            if key == "nr_throttled":
                return int(value)
        return 0

    def close(self, timeout: float = 5.0) -> None:
        """Remove the group, waiting up to ``timeout`` seconds for its processes to be gone."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError:  # busy: a process that is ending
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def __enter__(self) -> CpuBudget:
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(OSError):
            self.close()


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""
