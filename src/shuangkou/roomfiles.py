"""Room files: the TOML every room is written in, the errors every game's configuration
raises (:class:`ConfigError`, one :class:`Problem` per line naming the file and the key),
reading a file, and a room's layout of tables and keys (:class:`RoomLayout`), which turns
a file into a model's flat fields and names what is out of place.

>>> str(Problem("rooms/quick.toml", "timers.turn_seconds", "a number", '"fast" (a string)'))
'rooms/quick.toml: timers.turn_seconds: expected a number, found "fast" (a string)'
"""

from __future__ import annotations

import copy
import difflib
import functools
import json
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

__all__ = [
    "ConfigError", "Problem", "RoomLayout", "parse_override", "parse_toml", "read_room_file", "read_shipped",
    "shipped_source", "show_value", "suggest",
]


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


def shipped_source(name: str) -> str:
    """How errors name a shipped room file: ``configs/NAME.toml``."""
    return f"configs/{name}.toml"


def read_shipped(name: str) -> dict[str, Any]:
    """The parsed shipped room file ``name`` (a copy: the caller may change it)."""
    return copy.deepcopy(_parsed_shipped(name))


@functools.cache
def _parsed_shipped(name: str) -> dict[str, Any]:
    text = resources.files("shuangkou").joinpath("configs", f"{name}.toml").read_text(encoding="utf-8")
    return parse_toml(text, shipped_source(name))


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


def show_value(value: object) -> str:
    """A value as TOML writes it, with its type (what a :class:`Problem` says was found)."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int):
        return f"{value} (an integer)"
    if isinstance(value, float):
        return f"{value} (a float)"
    if isinstance(value, str):
        return f"{json.dumps(value, ensure_ascii=False)} (a string)"
    if isinstance(value, list | tuple):
        return f"an array of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, Mapping):
        return "a table"
    return repr(value)


def suggest(word: str, choices: list[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices``, or nothing."""
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


@dataclass(frozen=True)
class RoomLayout:
    """A room file's tables and their keys (``""``: the top level), in the file's order."""

    tables: Mapping[str, tuple[str, ...]]

    @functools.cached_property
    def field_table(self) -> dict[str, str]:
        """Each key's table."""
        return {key: table for table, keys in self.tables.items() for key in keys}

    def flatten(self, data: Mapping[str, Any], source: str) -> tuple[dict[str, Any], list[Problem]]:
        """The file layout -> the model's flat fields, and the structural problems found
        (a key out of its table, an unknown key, a table that is not one)."""
        field_table, tables = self.field_table, [table for table in self.tables if table]
        flat: dict[str, Any] = {}
        problems: list[Problem] = []
        for key, value in data.items():
            if key in tables:
                if not isinstance(value, Mapping):
                    problems.append(Problem(source, key, f"a table [{key}]", show_value(value)))
                    continue
                for inner, inner_value in value.items():
                    if field_table.get(inner) == key:
                        flat[inner] = inner_value
                        continue
                    home = field_table.get(inner)
                    hint = (f" ({inner} belongs in {f'[{home}]' if home else 'the top level'})" if home is not None
                            else suggest(inner, list(self.tables[key])))
                    problems.append(Problem(source, f"{key}.{inner}", f"one of {', '.join(self.tables[key])}",
                                            f"unknown key {inner!r}{hint}"))
            elif field_table.get(key) == "":
                flat[key] = value
            elif key in field_table:
                problems.append(Problem(source, key, f"{key} inside the table [{field_table[key]}]",
                                        "it at the top level"))
            else:
                top = self.tables.get("", ())
                problems.append(Problem(source, key, f"one of {', '.join(top)} or a table [{'], ['.join(tables)}]",
                                        f"unknown key {key!r}{suggest(key, [*top, *tables])}"))
        return flat, problems

    def dotted(self, loc: tuple[str | int, ...]) -> str:
        """A model error's location as the file names it: ``('phases', 2, 'doubling')`` ->
        ``'scoring.phases[2].doubling'``."""
        text = ""
        for part in loc:
            text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
        first = loc[0] if loc else ""
        table = self.field_table.get(first, "") if isinstance(first, str) else ""
        return f"{table}.{text}" if table else text

    def set_key(
        self, data: dict[str, Any], key: str, value: object, source: str, example: str,
        merge: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        """Set ``key`` (a plain name, or a dotted path such as ``example``) in the file-layout
        dict ``data``; with ``merge`` a table given for a table merges into it."""
        parts = key.split(".")
        if parts[0] in self.tables and parts[0]:
            path = parts
        elif parts[0] in self.field_table:
            table = self.field_table[parts[0]]
            path = [table, *parts] if table else parts
        else:
            known = [name for name in self.field_table if name] + [table for table in self.tables if table]
            expected = f"a configuration key (a plain name such as {example.rpartition('.')[2]}, or a dotted path " \
                f"such as {example})"
            raise ConfigError([Problem(source, key, expected, f"unknown key {parts[0]!r}{suggest(parts[0], known)}")])
        target = data
        for depth, part in enumerate(path[:-1]):
            inner = target.get(part)
            if inner is None:
                inner = target[part] = {}
            elif isinstance(inner, dict):
                inner = target[part] = dict(inner)
            else:
                raise ConfigError([Problem(source, ".".join(path[: depth + 1]), "a table to set a key in",
                                           show_value(inner))])
            target = inner
        current = target.get(path[-1])
        if merge is not None and isinstance(value, Mapping) and isinstance(current, Mapping):
            target[path[-1]] = merge(current, value)
        else:
            target[path[-1]] = value
