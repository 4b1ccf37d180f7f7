"""The game families the platform plays, one package each, and their registry.

A room file names its game (``game = "shuangkou"``; a file without the key is a Shuangkou
room, as every room file was before there were several games). The shell finds a room's
family here and reaches the game only through :mod:`shuangkou.games.interface`:

>>> family, room = load_room("classic")
>>> family.name, room.seats
('shuangkou', 4)
>>> game_of("points"), game_of("royalist"), "royalist" in families()
('shuangkou', 'royalist', True)

A new game is a package implementing :class:`~shuangkou.games.interface.GameFamily` and
one :func:`register` line below (a test may register one of its own).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping

from ..commandline import AddParser
from ..roomfiles import ConfigError, Problem, read_room_file
from .interface import GameFamily, Room

__all__ = [
    "DEFAULT_GAME", "check_config_main", "commands", "families", "family", "game_of", "load_room", "register",
    "registered", "room_from_json", "unregister",
]

DEFAULT_GAME = "shuangkou"
"""The game of a room file that names none."""

_FAMILIES: dict[str, GameFamily] = {}
_COMMANDS: dict[str, tuple[AddParser, ...]] = {}
_changes = 0  # registrations so far: what is built from the registered families is built again when it moves


def registered() -> int:
    """A number that changes whenever a family is registered or unregistered (for caches of
    what is built from every family, such as the protocol's validator)."""
    return _changes


def register(game: GameFamily, game_commands: tuple[AddParser, ...] = ()) -> None:
    """Make ``game`` playable under its name (a second family of one name is refused), with
    its own subcommands of the command line, if any (:mod:`shuangkou.commandline`)."""
    global _changes
    if game.name in _FAMILIES and _FAMILIES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _FAMILIES[game.name] = game
    _COMMANDS[game.name] = game_commands
    _changes += 1


def unregister(name: str) -> None:
    """Forget the family ``name`` (a test's own game, once the test is over)."""
    global _changes
    _FAMILIES.pop(name, None)
    _COMMANDS.pop(name, None)
    _changes += 1


def families() -> dict[str, GameFamily]:
    """Every registered family by name."""
    return dict(_FAMILIES)


def commands() -> list[AddParser]:
    """The registered families' own subcommands of the command line, family by family."""
    return [add for game_commands in _COMMANDS.values() for add in game_commands]


def family(name: str) -> GameFamily:
    """The family registered as ``name``; ``KeyError`` naming the known ones otherwise."""
    try:
        return _FAMILIES[name]
    except KeyError:
        raise KeyError(f"no game {name!r}; the games are {', '.join(sorted(_FAMILIES))}") from None


def game_of(source: str | os.PathLike[str]) -> str:
    """The game a room is for: a family's shipped room name, or the ``game`` key of the
    room file at ``source`` (:data:`DEFAULT_GAME` without one). :class:`ConfigError` names
    the file (and the key) when it cannot be read or names no registered game."""
    if isinstance(source, str):
        for name, game in _FAMILIES.items():
            if source in game.shipped_rooms:
                return name
    shipped = ", ".join(room for game in _FAMILIES.values() for room in game.shipped_rooms)
    data = read_room_file(source, shipped)
    name = data.get("game", DEFAULT_GAME)
    if not isinstance(name, str) or name not in _FAMILIES:
        found = f'"{name}" (a string)' if isinstance(name, str) else repr(name)
        raise ConfigError([Problem(os.fspath(source), "game", f"one of {', '.join(sorted(_FAMILIES))}", found)])
    return name


def load_room(
    source: str | os.PathLike[str], overrides: Mapping[str, object] | None = None
) -> tuple[GameFamily, Room]:
    """The family of the room at ``source`` (a shipped name or a file, :func:`game_of`) and
    the room, validated by that family; :class:`ConfigError` naming the file and key."""
    game = family(game_of(source))
    return game, game.load_room(source, overrides)


def room_from_json(text: str, source: str) -> tuple[GameFamily, Room]:
    """The family and the room of a room's stored JSON (:meth:`Room.to_json`): its ``game``
    key names the family (:data:`DEFAULT_GAME` without one); ``source`` names it in errors."""
    data = json.loads(text)
    name = data.get("game", DEFAULT_GAME) if isinstance(data, dict) else DEFAULT_GAME
    if not isinstance(name, str) or name not in _FAMILIES:
        raise ConfigError([Problem(source, "game", f"one of {', '.join(sorted(_FAMILIES))}", repr(name))])
    game = _FAMILIES[name]
    return game, game.room_from_json(text, source)


def check_config_main(target: str, overrides: Mapping[str, object] | None = None) -> int:
    """``shuangkou check-config TARGET``: print the resolved room (of any registered game)
    as JSON and return 0, or print the problems to stderr and return 2."""
    try:
        _, room = load_room(target, overrides)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    print(room.to_json())
    return 0


def _register_shipped() -> None:
    from .royalist.family import ROYALIST
    from .shuangkou.commands import COMMANDS as SHUANGKOU_COMMANDS
    from .shuangkou.family import SHUANGKOU
    from .tractor.family import TRACTOR

    register(SHUANGKOU, SHUANGKOU_COMMANDS)
    register(ROYALIST)
    register(TRACTOR)


_register_shipped()
