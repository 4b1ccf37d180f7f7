"""The WebSocket protocol: one JSON object per frame, each with a ``type``.

Client messages are validated here (pydantic): the shell's (join, watch, ready, replaying,
hint, hosting, leave, bots, ping) and each registered game's own (:attr:`GameFamily.messages`,
Shuangkou's ``play`` and ``pass``), in one envelope told apart by ``type``. Server messages
are typed dictionaries built by the tables, of the views in :mod:`.views`, a game's view
inside them. ``docs/protocol.md`` documents both, and ``shuangkou protocol-schema`` prints
the JSON Schema of every message, and each game's.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, NotRequired, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict  # pydantic needs it for schemas on Python < 3.12

from ..errors import ErrorBody, ErrorCode, Refusal
from ..games import families, registered
from .views import AccountView, RoomSummary, TableView

__all__ = [
    "MAX_FRAME_BYTES",
    "MAX_TRANSPORT_FRAME_BYTES",
    "SHELL_MESSAGES",
    "ClientMessage",
    "ErrorMessage",
    "ProtocolError",
    "error",
    "parse_client_message",
    "schemas",
]

MAX_FRAME_BYTES = 8192
"""The largest message the server reads; a longer frame is refused with ``too_large``."""

MAX_TRANSPORT_FRAME_BYTES = 1024 * 1024
"""The largest frame the web server accepts at all: a longer one closes the connection
(code 1009) before the server sees it."""


class ProtocolError(Refusal, ValueError):
    """A frame the server cannot read as a client message."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, strict=True)


class JoinMessage(_Message):
    """Sit down in a room: quick match (``opponent`` "human"), against a bot ("bot"), or
    at a new private table to share as an invite link ("invite"); or at a table by its id,
    an invite table in the free ``seat`` of one's choice (the first free seat without it)."""

    type: Literal["join"]
    room: str | None = Field(default=None, max_length=64)
    table: str | None = Field(default=None, max_length=64)
    opponent: Literal["human", "bot", "invite"] = "human"
    seat: int | None = None  # the table refuses a seat it does not have (bad_seat)
    redirected: bool = False  # follows a cluster's redirect: seated on this node, not sent on again


class WatchMessage(_Message):
    """Watch a table as a spectator (public view only)."""

    type: Literal["watch"]
    table: str = Field(max_length=64)


class ReadyMessage(_Message):
    """Ready for the next game (R11.4)."""

    type: Literal["ready"]


class ReplayingMessage(_Message):
    """Between games: the player watches the replay of the table's last game; the seat's
    ready timer (R11.4) runs two minutes longer, once per game."""

    type: Literal["replaying"]


class HintMessage(_Message):
    """Ask for the legal moves in hint order (the client cycles through them)."""

    type: Literal["hint"]


class HostingMessage(_Message):
    """Switch hosting (托管) on or off (R11.2)."""

    type: Literal["hosting"]
    on: bool


class LeaveMessage(_Message):
    """Leave the table; during a game this is an escape (R10)."""

    type: Literal["leave"]


class BotsMessage(_Message):
    """Seat bots in the free seats of your table, between games."""

    type: Literal["bots"]


class PingMessage(_Message):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


ShellMessage = (
    JoinMessage | WatchMessage | ReadyMessage | ReplayingMessage | HintMessage | HostingMessage | LeaveMessage
    | BotsMessage | PingMessage
)
SHELL_MESSAGES: tuple[type[BaseModel], ...] = (
    JoinMessage, WatchMessage, ReadyMessage, ReplayingMessage, HintMessage, HostingMessage, LeaveMessage, BotsMessage,
    PingMessage,
)
"""The shell's messages, the same for every game."""

ClientMessage = ShellMessage | BaseModel
"""A client message: the shell's, or one of a game's own (:attr:`GameFamily.messages`, each
with a ``type`` and the state ``seq`` it is made against)."""

_built: tuple[int, TypeAdapter[Any], tuple[str, ...]] | None = None


def _client() -> tuple[TypeAdapter[Any], tuple[str, ...]]:
    """The validator of every client message (the shell's, then each registered game's),
    and their types; built again only when the registered games change."""
    global _built
    if _built is None or _built[0] != registered():
        models = list(SHELL_MESSAGES)
        for game in families().values():
            models.extend(model for model in game.messages if model not in models)
        union: Any = models[0]
        for model in models[1:]:
            union = union | model
        ordered = ("join", "watch", "ready", "replaying", "hint", "hosting", "leave", "bots", "ping")
        types = tuple(dict.fromkeys((*ordered[:4], *_types(models[len(SHELL_MESSAGES):]), *ordered[4:])))
        _built = (registered(), TypeAdapter(Annotated[union, Field(discriminator="type")]), types)
    return _built[1], _built[2]


def _types(models: list[type[BaseModel]]) -> list[str]:
    return [str(get_args(model.model_fields["type"].annotation)[0]) for model in models]


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Validate one frame. Raises :class:`ProtocolError` naming the problem."""
    size = len(text.encode(errors="surrogatepass")) if isinstance(text, str) else len(text)
    if size > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", f"a message may have at most {MAX_FRAME_BYTES} bytes")
    adapter, types = _client()
    try:
        message: ClientMessage = adapter.validate_json(text)
        return message
    except ValidationError as problem:
        first = problem.errors()[0]
        kind = first["type"]
        if kind == "json_invalid":
            raise ProtocolError("bad_json", f"not valid JSON: {first['msg']}") from None
        if constant := _non_json_constant(text):
            raise ProtocolError("bad_json", f"not valid JSON: {constant} is not a JSON value") from None
        if kind in ("union_tag_invalid", "union_tag_not_found"):
            raise ProtocolError(
                "unknown_type", f"'type' must be one of {', '.join(types)}"
            ) from None
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise ProtocolError("bad_message", f"{where}: {first['msg']}") from None


def _non_json_constant(text: str | bytes) -> str | None:
    """The first ``NaN``, ``Infinity`` or ``-Infinity`` in the frame, which the parser reads
    but JSON does not have. Only a refused frame can hold one: no field of a client message
    takes a number that is not an integer."""
    constants: list[str] = []
    with contextlib.suppress(ValueError, RecursionError):  # then the validation error stands
        json.loads(text, parse_constant=constants.append)
    return constants[0] if constants else None


# ---------------------------------------------------------------------------
# Server messages


ErrorMessage = ErrorBody  # a refused message: nothing changed


class WelcomeMessage(TypedDict):
    """First message on a connection: the account and the rooms. A seated player's table
    follows as a ``state``."""

    type: Literal["welcome"]
    account: AccountView
    rooms: list[RoomSummary]


class StateMessage(TypedDict):
    """The whole state as this connection may see it, after ``events`` (may be empty); the
    state of a person's turn carries the seat's legal ``moves`` in hint order."""

    type: Literal["state"]
    events: list[dict[str, Any]]  # the game's events (its section of docs/protocol.md)
    table: TableView
    moves: NotRequired[list[dict[str, Any]]]  # the game's moves, as its messages name them


class HintReply(TypedDict):
    """The legal moves of the seat in hint order, as a state of its turn carries them; empty
    unless it is the seat's turn."""

    type: Literal["hint"]
    seq: int
    moves: list[dict[str, Any]]


class NoticeMessage(TypedDict):
    """Something to tell the player, e.g. ``timed_out`` with ``count`` (R11.3)."""

    type: Literal["notice"]
    code: str
    message: str
    count: int


class PongMessage(TypedDict):
    """Answer to ping."""

    type: Literal["pong"]


class LeftMessage(TypedDict):
    """Answer to ``leave``: the player is back in the lobby, the connection stays open.
    ``escape``: a game was in progress (R10); ``hosted``: hosting plays the seat to the end
    ("host" mode, R10.1), and the player is bound to that table until its settlement.
    ``charged``: on an escape, what it cost — taken from the settlement it made when the
    game ended at once (R10.2, C6.2), or the penalty charged with the game's result when
    hosting plays on (R10.1, C6.1) — else null."""

    type: Literal["left"]
    table: str
    escape: bool
    hosted: bool
    charged: Mapping[str, Any] | None


class RedirectMessage(TypedDict):
    """A cluster's node: the player's table runs on another node, at ``url`` (its base
    URL); the client connects there with the same token. Sent instead of ``welcome`` (the
    socket closes), or in answer to a ``join``: with ``table``, players wait at that table
    on that node (or the invite names it): the client connects there and joins it; with
    ``room``, no table waits and that node runs fewer tables: the client connects there
    and joins the room by quick match; with ``watch``, in answer to a ``watch`` of a table
    that node runs: the client connects there and watches it."""

    type: Literal["redirect"]
    url: str
    table: NotRequired[str]
    room: NotRequired[str]
    watch: NotRequired[str]


class ClosedMessage(TypedDict):
    """The connection is closed by the server; ``reason`` says why (e.g. ``replaced``)."""

    type: Literal["closed"]
    reason: str


def error(code: ErrorCode, message: str, detail: Mapping[str, str | int] | None = None) -> ErrorMessage:
    """An error message (with the game's ``detail`` of it, when it gives one)."""
    return Refusal(code, message, detail).to_dict()


def schemas() -> dict[str, Any]:
    """JSON Schema of every client and server message, and each registered game's own
    (its messages, view, events and moves)."""
    server = [
        WelcomeMessage, StateMessage, HintReply, NoticeMessage, ErrorMessage, PongMessage, LeftMessage, ClosedMessage,
        RedirectMessage,
    ]
    return {
        "client": _client()[0].json_schema(by_alias=True),
        "server": {cls.__name__: TypeAdapter(cls).json_schema() for cls in server},
        "games": {name: game.schemas() for name, game in sorted(families().items())},
    }
