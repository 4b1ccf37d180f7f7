"""Room files: the TOML every room is written in, the errors every game's configuration
raises (:class:`ConfigError`, one :class:`Problem` per line naming the file and the key),
and reading a file.

>>> str(Problem("rooms/quick.toml", "timers.turn_seconds", "a number", '"fast" (a string)'))
'rooms/quick.toml: timers.turn_seconds: expected a number, found "fast" (a string)'
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["ConfigError", "Problem", "parse_override", "parse_toml", "read_room_file"]


class Problem(NamedTuple):
    """One thing wrong with a configuration.

    ``file`` names the file (or ``overrides (on FILE)``), ``key`` the dotted path
    (empty for a TOML syntax error, which gives ``line`` instead).
    """

    file: str
    key: str
    expected: str
    found: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        if self.line is not None:
            where = f"line {self.line}, column {self.column}" if self.column else f"line {self.line}"
            return f"{self.file}: {where}: expected {self.expected}, found {self.found}"
        if not self.key:
            return f"{self.file}: expected {self.expected}, found {self.found}"
        return f"{self.file}: {self.key}: expected {self.expected}, found {self.found}"


class ConfigError(ValueError):
    """An invalid configuration; ``problems`` lists every problem found, one per line."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(problem) for problem in problems))
        self.problems = problems


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """The TOML document ``text`` of the file ``source``; :class:`ConfigError` with the line
    and column of a syntax error."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        detail = re.sub(r"\s*\(at line \d+, column \d+\)", "", message) or "a syntax error"
        line = int(match.group(1)) if match else None
        column = int(match.group(2)) if match else None
        if line is None and "end of document" in message:
            line = text.count("\n") + 1
        raise ConfigError(
            [Problem(source, "", "valid TOML", f"a syntax error: {detail}", line, column)]
        ) from None


def read_room_file(path: str | os.PathLike[str], names: str) -> dict[str, Any]:
    """The parsed room file at ``path``; :class:`ConfigError` when it cannot be read
    (``names``: the shipped names a caller might have meant, for the message) or parsed."""
    source = os.fspath(path)
    try:
        text = Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        expected = f"a readable UTF-8 TOML file or a shipped name ({names})"
        raise ConfigError([Problem(source, "", expected, f"an unreadable file: {reason}")]) from None
    return parse_toml(text, source)


def parse_override(text: str) -> tuple[str, object]:
    """``"key=value"`` (as given on a command line) -> (key, value); the value is read
    as a TOML value (``true``, ``12``, ``0.5``, ``"x"``, ``[1, 2]``) or else taken as a
    plain string.

    >>> parse_override("four_joker_bomb=largest")
    ('four_joker_bomb', 'largest')
    >>> parse_override("escape.escape_share=0.5")
    ('escape.escape_share', 0.5)
    """
    key, separator, value = text.partition("=")
    if not separator or not key.strip():
        raise ConfigError([Problem("overrides", text, "key=value", repr(text))])
    try:
        parsed: object = tomllib.loads(f"value = {value.strip()}")["value"]
    except tomllib.TOMLDecodeError:
        parsed = value.strip()
    return key.strip(), parsed
