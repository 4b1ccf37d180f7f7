"""What every subcommand of the ``shuangkou`` command line is made of, the shell's and a
game's alike (:mod:`shuangkou.cli` builds the parser; a game family brings its own
commands through the registry, :func:`shuangkou.games.commands`).

A subcommand is one ``add_*`` function: it adds its parser to the subparsers and sets
``run``, the function that carries the command out and returns the exit status. Bad input
raises :class:`CommandError`, which the command line reports as ``{"error": ...}`` with
exit status 2.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import NoReturn, TypeAlias

__all__ = [
    "EXIT_ERROR", "EXIT_INVALID", "EXIT_OK", "AddParser", "CommandError", "Handler", "Parser", "Subparsers",
    "UsageError", "emit",
]

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_ERROR = 2


class CommandError(Exception):
    """Bad input to a command: reported as ``{"error": ...}`` with exit status 2."""


class UsageError(CommandError):
    """A command line argparse cannot parse; ``usage`` is the usage line of the parser."""

    def __init__(self, message: str, usage: str) -> None:
        super().__init__(message)
        self.usage = usage


class Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting, so usage errors are reported
    like every other input error."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.format_usage()) from None


Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"
AddParser: TypeAlias = Callable[[Subparsers], None]
Handler: TypeAlias = Callable[[argparse.Namespace], int]


def emit(value: object) -> None:
    """Print one JSON document on stdout."""
    print(json.dumps(value))
