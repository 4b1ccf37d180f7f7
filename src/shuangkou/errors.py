"""One family of refusals for the whole project: a stable code and a message for people.

Every refusal — an action the game rejects, a join the lobby refuses, a frame the protocol
cannot read, a scenario the referee cannot play, an error the server sent to a client —
is a :class:`Refusal` (or a subclass naming where it came from) whose ``code`` is one of
:data:`ErrorCode`. The set is closed: ``mypy --strict`` rejects a code that is not in it,
and ``tests/test_errors.py`` fails when one is not documented in ``docs/protocol.md``.

>>> from shuangkou.games.shuangkou.game import GameError
>>> problem = GameError("not_your_turn", "it is seat 1's turn, not seat 0's")
>>> isinstance(problem, Refusal), problem.to_dict()
(True, {'type': 'error', 'code': 'not_your_turn', 'message': "it is seat 1's turn, not seat 0's"})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Literal, NotRequired, TypeVar, get_args

from typing_extensions import TypedDict  # pydantic reads it for the protocol schema on Python < 3.12

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["ERROR_CODES", "ErrorBody", "ErrorCode", "Refusal", "allowed", "first_problem", "is_error_code"]

ErrorCode = Literal[
    # a frame or request that cannot be read (protocol, HTTP bodies)
    "bad_json",
    "too_large",
    "unknown_type",
    "bad_message",
    "rate_limited",
    "too_many_connections",
    # sessions, the lobby and the server
    "invalid_token",
    "shutting_down",
    "not_seated",
    "wrong_place",
    "unknown_room",
    "room_closed",
    "no_rooms",
    "unknown_table",
    "table_full",
    "already_seated",
    "seat_taken",
    "below_entry",
    "in_game",
    "settling",
    "not_playing",
    "stale",
    "unavailable",
    "internal",
    # a game action (the rules core)
    "bad_action",
    "bad_seat",
    "not_your_turn",
    "pass_on_lead",
    "unknown_card",
    "cards_not_held",
    "no_cards",
    "invalid_combination",
    "does_not_beat",
    "illegal_follow",
    "declaration_refused",
    "not_hosted",
    "escaped",
    "game_over",
    "nothing_to_undo",
    # games built from explicit hands, records and replays
    "bad_hands",
    "bad_record",
    "replay_mismatch",
    "not_finished",
    # settling a game (shuangkou.games.shuangkou.scoring)
    "bad_settlement",
    # the referee
    "bad_scenario",
    "bad_config",
    # the HTTP and operator API
    "bad_name",
    "not_operator",
    "unknown_account",
    "unknown_game",
    "refused",
    # the Python client
    "closed",
]

ERROR_CODES: frozenset[str] = frozenset(get_args(ErrorCode))


class ErrorBody(TypedDict):
    """The JSON form of a refusal, on the WebSocket and in HTTP answers; ``detail`` when the
    game says more (a refused Tractor follow: the rule and its counts)."""

    type: Literal["error"]
    code: ErrorCode
    message: str
    detail: NotRequired[dict[str, str | int]]


def first_problem(error: ValidationError, whole: str) -> str:
    """The first problem pydantic found, as ``KEY: MESSAGE`` (``whole`` names the input when
    the problem is with all of it): what a refusal of a JSON document says."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or whole
    return f"{where}: {first['msg'].removeprefix('Value error, ')}"


def is_error_code(text: str) -> bool:
    """Whether ``text`` is one of the codes of :data:`ErrorCode`."""
    return text in ERROR_CODES


class Refusal(Exception):
    """Something refused, with nothing changed: ``code`` for programs, ``message`` for people,
    ``detail`` for a program that words it itself (a page in its player's language)."""

    def __init__(self, code: ErrorCode, message: str, detail: Mapping[str, str | int] | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"{code!r} is not an error code of shuangkou.errors.ErrorCode")
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.detail = dict(detail) if detail else None

    def to_dict(self) -> ErrorBody:
        """``{"type": "error", "code": ..., "message": ...}``, and its ``detail`` when it has one."""
        body: ErrorBody = {"type": "error", "code": self.code, "message": self.message}
        if self.detail:
            body["detail"] = self.detail
        return body


Checked = TypeVar("Checked")


def allowed(check: Callable[[Checked], None], action: Checked) -> Checked | None:
    """``action`` when ``check`` accepts it, None when it refuses it with a :class:`Refusal`
    (a game's ``escape_action``: leaving now, when that is an escape)."""
    try:
        check(action)
    except Refusal:
        return None
    return action
