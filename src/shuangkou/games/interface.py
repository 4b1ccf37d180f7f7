"""What every game family gives the platform: a room, a hand in play, and the family itself.

The shell (server, store, referee, simulator, command line) reaches a game only through
these protocols and the registry (:mod:`shuangkou.games`); a game package implements them
and never imports the shell. The shapes follow what the four games need:

- **Who may act** is a set, not one seat (:meth:`Hand.waiting`): a lead or a follow waits
  for one seat, a declaration window for several at once (Royalist's declarations), a
  private action for one seat (Tractor's burying), each under its own timer.
- **Actions** are the game's own values, typed per game; on the wire and in the journal
  they are JSON objects (:meth:`GameFamily.action_from_dict`, :meth:`GameFamily.action_to_dict`).
  A hand checks an action before it applies it and can take the last one back (:meth:`Hand.undo`,
  for an action the journal could not store).
- **Views** are per seat and public (:meth:`Hand.view`): the game decides what each seat
  may see, hands and hidden roles included; the shell forwards them.
- **The default action** of a seat is the game's (:meth:`Hand.default_action`): what a timer
  that runs out, hosting or an absent player does, whatever the game waits for.
- **A match** is a value (:meth:`Hand.carried`): the state one hand hands to the next
  (next leader, levels, dealer, a running score), stored with the table and given to the
  next deal.
- **Settlement** is per-seat nets plus the house, with the game's own breakdown
  (:class:`Settled`); fees, caps and the ledger entry are the room's and the store's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "DEFAULT_SEARCH_ROLLOUTS", "Budget", "Event", "GameFamily", "Hand", "HandFacts", "HandRecord", "Player", "Room",
    "Settled", "TableBot", "Waiting",
]


DEFAULT_SEARCH_ROLLOUTS = 60
"""Rollouts per decision of a searching bot by default (:class:`Budget`)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a searching bot (Shuangkou's expert) may search per decision: ``rollouts``
    playouts in all (every candidate gets the same number, at least one), and at most
    ``milliseconds`` of wall time when given (then the decision depends on the machine's
    speed); ``candidates`` moves are searched at most. The simulator and the command line
    hand it to :meth:`GameFamily.player`."""

    rollouts: int = DEFAULT_SEARCH_ROLLOUTS
    milliseconds: float | None = None
    candidates: int = 12

    def __post_init__(self) -> None:
        if self.rollouts < 1:
            raise ValueError(f"the expert's rollouts per move must be at least 1, not {self.rollouts}")
        if self.milliseconds is not None and self.milliseconds <= 0:
            raise ValueError(f"the expert's milliseconds per move must be above 0, not {self.milliseconds}")
        if self.candidates < 2:
            raise ValueError(f"the expert searches at least 2 candidate moves, not {self.candidates}")


@dataclass(frozen=True, slots=True)
class Waiting:
    """One seat the hand waits for: ``seat`` may act now in ``phase`` (``"turn"`` for a
    lead or a follow, or the game's own, such as ``"declare"``), under a timer of
    ``seconds``. A hand waiting for several seats at once lists each. ``clocked``: the
    timer paces the game (Tractor's deal: a seat's card arrives when it runs out), so it
    runs for bots and hosted seats too, anew at every state; a bot acts before it only to
    do something else than the timer would (declare)."""

    seat: int
    phase: str
    seconds: float
    clocked: bool = False


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What a simulation counts of a finished hand: the seats that won, the result's name,
    one figure per seat that the family names (:attr:`GameFamily.figure`; Shuangkou: the
    scoring phase), the timeouts, how often hosting was switched on, and whether a seat
    escaped."""

    winners: tuple[int, ...]
    result: str
    figures: tuple[int, ...]
    timeouts: int
    hosting_on: int
    escaped: bool


class Event(Protocol):
    """Something that happened in a hand, as every seat may see it (:meth:`view`)."""

    @property
    def type(self) -> str:
        """The event's kind, e.g. ``"play"``."""
        ...

    def view(self) -> Mapping[str, object]:
        """The event's JSON form, as the protocol sends it."""
        ...


class Settled(Protocol):
    """A hand's settlement: a change per seat and the house's, summing to zero, and the
    breakdown the result screen shows (:meth:`to_dict`)."""

    @property
    def deltas(self) -> Sequence[int]:
        """Each seat's change of balance."""
        ...

    @property
    def house(self) -> int:
        """The house's change (fees, remainders)."""
        ...

    def to_dict(self) -> Mapping[str, Any]:
        """The whole breakdown, JSON-ready; it names the seats that won as ``winners`` (a
        two-seat Shuangkou game: ``winner``), which a player's history reads."""
        ...


class Room(Protocol):
    """A family's validated room configuration: the part every game shares, which the
    shell reads (seats, money, timers, bots), beside the game's own settings."""

    @property
    def game(self) -> str:
        """The family's name (:attr:`GameFamily.name`)."""
        ...

    @property
    def name(self) -> str:
        """The room's display name."""
        ...

    @property
    def edition(self) -> str:
        """The balance it plays for: ``"points"`` or ``"wealth"``."""
        ...

    @property
    def seats(self) -> int:
        """Players at a table."""
        ...

    @property
    def starting_balance(self) -> int:
        """A new account's balance in this room's edition."""
        ...

    @property
    def allow_negative(self) -> bool:
        """Whether balances may go below zero (R9.5)."""
        ...

    @property
    def most_at_stake(self) -> int:
        """An upper bound on what one seat can pay or receive in one hand."""
        ...

    @property
    def entry_balance(self) -> int | None:
        """The least balance a player needs to sit down, when the room names one."""
        ...

    @property
    def stakes(self) -> tuple[int, int]:
        """The smallest and the largest stake a hand is played for, as the lobby shows them."""
        ...

    @property
    def turn_seconds(self) -> float:
        """A turn's timer, as the lobby and the table show it."""
        ...

    @property
    def ready_seconds(self) -> float:
        """How long a seated player has to get ready before the seat is freed."""
        ...

    @property
    def escape_mode(self) -> str:
        """What leaving a hand in progress does: ``"host"`` (hosting plays on) or ``"settle"``."""
        ...

    @property
    def bot_level(self) -> str:
        """The level the room's bots play at (:meth:`GameFamily.table_bot`)."""
        ...

    @property
    def bot_fill(self) -> str:
        """``"auto"``: bots take the free seats after :attr:`bot_fill_seconds`; ``"offer"``: the players are asked."""
        ...

    @property
    def bot_fill_seconds(self) -> float:
        """How long players wait for others before bots come (0: never)."""
        ...

    def can_sit(self, balance: int) -> bool:
        """Whether a player of this balance may sit down."""
        ...

    def stake_level(self, balance: int) -> int:
        """The room's level for a player of this balance (Shuangkou's levels of R9.1; 0 in a
        game without levels), as the player's account shows it."""
        ...

    @property
    def variant(self) -> str | None:
        """The game's rule variant the lobby names the room by (Shuangkou: ``"rush"``,
        ``"classic"`` or ``"qianbian"``; Royalist: ``"called"``), None for a game's usual
        variant or a game of one."""
        ...

    def to_json(self) -> str:
        """The resolved configuration, stored with every hand."""
        ...


class Hand(Protocol):
    """One hand of a game in play: a pure, deterministic state machine with no clock and
    no I/O."""

    @property
    def seats(self) -> int:
        """Players in the hand."""
        ...

    @property
    def seq(self) -> int:
        """Actions applied so far."""
        ...

    @property
    def finished(self) -> bool:
        """Whether the hand is over."""
        ...

    @property
    def events(self) -> Sequence[Event]:
        """Every event so far, oldest first."""
        ...

    @property
    def turn(self) -> Hashable:
        """A value that changes exactly when a turn passes: an action must be made against a
        state of the current turn (changes within a turn, such as hosting switched, keep it;
        a window answered by several seats is one turn). None once the hand is over."""
        ...

    @property
    def swap(self) -> tuple[int, int] | None:
        """Two seats whose players changed places at the deal (classic C1.4), or None."""
        ...

    @property
    def result(self) -> str | None:
        """The result's name once the hand is over (for logs and reports)."""
        ...

    def waiting(self) -> Sequence[Waiting]:
        """The seats that may act now (none once the hand is over)."""
        ...

    def check(self, action: Any) -> None:
        """Refuse ``action`` with a :class:`~shuangkou.errors.Refusal` if it may not be
        applied now; change nothing."""
        ...

    def apply(self, action: Any) -> list[Any]:
        """Check and apply ``action``; the events it caused."""
        ...

    def undo(self) -> Any:
        """Take the last action back; return it."""
        ...

    def default_action(self, seat: int) -> Any:
        """What a hosted or absent ``seat`` does now, for whatever the hand waits for."""
        ...

    def timeout_action(self, seat: int) -> Any:
        """What ``seat``'s timer does when it runs out."""
        ...

    def escape_action(self, seat: int) -> Any | None:
        """``seat`` leaving now, as an action; None when its leaving would be no escape."""
        ...

    def hosted(self, seat: int) -> bool:
        """Whether hosting (托管) plays ``seat``: the shell then makes its default actions."""
        ...

    def hosting_action(self, seat: int, on: bool, cause: str | None = None) -> Any:
        """Hosting switched for ``seat`` (``cause``: ``"disconnect"`` when the shell does it)."""
        ...

    def in_play(self, seat: int) -> bool:
        """Whether ``seat`` still has a part in the hand (a seat that went out has none)."""
        ...

    def leaving_cost(self, seat: int, balances: Sequence[int]) -> Mapping[str, Any] | None:
        """What leaving now would cost ``seat`` for the seats' balances (JSON-ready), None
        when its leaving would be no escape; shown to the seat before it leaves."""
        ...

    def escape_charged(self, settled: Any) -> Mapping[str, Any] | None:
        """What the escape that ended the hand charged, read from its settlement; None when
        no escape ended it."""
        ...

    def view(self, seat: int | None = None, public: Any = None) -> Mapping[str, Any]:
        """What ``seat`` may see (``None``: a spectator's public view). ``public``: this
        state's public view, built already, which a seat's view may reuse."""
        ...

    def to_record(self) -> HandRecord:
        """Everything :meth:`GameFamily.restore` needs to rebuild the hand, with its actions and events."""
        ...

    def settlement(self, balances: Sequence[int]) -> Settled:
        """The finished hand's settlement for the seats' balances before it."""
        ...

    def carried(self) -> Mapping[str, Any]:
        """What the finished hand hands to the next one at the table (JSON-ready)."""
        ...


class HandRecord(Protocol):
    """A hand's record: its room, its deal, its actions (JSON forms) and their events (None:
    not known, so not compared when it is restored)."""

    @property
    def config(self) -> Room:
        """The room the hand was dealt in."""
        ...

    @property
    def actions(self) -> Sequence[Mapping[str, object]]:
        """The actions, in their JSON form."""
        ...

    @property
    def events(self) -> Sequence[Mapping[str, object]] | None:
        """The events the actions caused, when known."""
        ...

    def to_dict(self) -> dict[str, object]:
        """The JSON form, as stored."""
        ...

    def to_orjson(self) -> dict[str, object]:
        """:meth:`to_dict` as :func:`orjson.dumps` takes it (values may be :class:`orjson.Fragment`)."""
        ...

    def with_actions(
        self, actions: Sequence[Mapping[str, object]], events: Sequence[Mapping[str, object]] | None = None
    ) -> HandRecord:
        """A copy with other actions (a journal's) and their events."""
        ...


class Player(Protocol):
    """A bot: the action it takes for ``seat`` in ``hand``, from what that seat may see."""

    def act(self, hand: Any, seat: int) -> Any:
        """The bot's action."""
        ...


class TableBot(Protocol):
    """A bot seated at a server's table, at its room's level. A quick bot acts in the
    table's task (:meth:`act`); a searching bot's move is computed in a worker process
    (:meth:`search`), from what its seat may see, while the table goes on."""

    @property
    def level(self) -> str:
        """The room's ``bot_level`` it plays at."""
        ...

    def act(self, hand: Any, seat: int) -> Any:
        """The bot's action now (for a searching bot: the move it falls back on when its
        search fails)."""
        ...

    def search(self, hand: Any, seat: int, seed: int) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        """A search for a worker process: a picklable function and its arguments, whose
        result is the action; None: :meth:`act` now."""
        ...


class GameFamily(Protocol):
    """A game family: its rooms, its deal and its actions. One instance per family is
    registered under :attr:`name`."""

    @property
    def name(self) -> str:
        """The name room files give as ``game = NAME``."""
        ...

    @property
    def shipped_rooms(self) -> tuple[str, ...]:
        """The rooms the family ships, loadable by name."""
        ...

    def load_room(self, source: str | os.PathLike[str], overrides: Mapping[str, object] | None = None) -> Room:
        """A room of this family from a file (or a shipped name), validated;
        :class:`~shuangkou.roomfiles.ConfigError` naming the file and key otherwise."""
        ...

    def deal(
        self,
        room: Any,
        seed: int | None = None,
        carried: Mapping[str, Any] | None = None,
        continuing: Sequence[bool] = (),
    ) -> Hand:
        """A new hand, shuffled with ``seed`` (the operating system's secure source without),
        following the previous hand's :meth:`Hand.carried` at the table; ``continuing``
        (when given) says of each seat whether the player who held it in that hand holds it
        still (a match may go on only with its players)."""
        ...

    def room_from_json(self, text: str, source: str) -> Room:
        """A room from its :meth:`Room.to_json` (stored with a hand); ``source`` names it in errors."""
        ...

    def read_record(self, data: Mapping[str, Any], room: Any = None) -> HandRecord:
        """A hand's record from its JSON form (:meth:`HandRecord.to_dict`), under ``room``
        when given (else the record's own); a :class:`~shuangkou.errors.Refusal`
        (``bad_record``) naming the problem otherwise."""
        ...

    def restore(self, record: Any) -> Hand:
        """The hand ``record`` describes, its actions replayed (their events compared when
        the record has them); a :class:`~shuangkou.errors.Refusal` when it does not replay."""
        ...

    def scenario(self, room: Any, data: Mapping[str, Any]) -> Hand:
        """A hand from a referee scenario's explicit start (hands, leader and the like)."""
        ...

    def action_from_dict(self, data: Mapping[str, object]) -> Any:
        """An action from its JSON form; a :class:`~shuangkou.errors.Refusal` when malformed."""
        ...

    def action_to_dict(self, action: Any) -> dict[str, object]:
        """An action's JSON form."""
        ...

    @property
    def messages(self) -> Sequence[type[Any]]:
        """The game's client messages (pydantic models, each with a literal ``type`` and a
        ``seq``), beside the shell's in the one protocol envelope."""
        ...

    def message_action(self, seat: int, message: Any) -> Any:
        """The action ``seat`` asks for with one of :attr:`messages`; a
        :class:`~shuangkou.errors.Refusal` when it names something the game has not."""
        ...

    def moves_json(self, hand: Any, seat: int) -> str:
        """The legal moves of ``seat`` in hint order, as the JSON list a state carries."""
        ...

    def schemas(self) -> dict[str, Any]:
        """JSON Schemas of the game's view, events and moves, for the protocol's documentation."""
        ...

    def teams(self, settlement: Mapping[str, Any], seats: int) -> list[int]:
        """Each seat's team in a finished hand of ``seats`` (read from its ``settlement``'s
        breakdown where the cards formed the teams), as a player's history shows it."""
        ...

    def replay(self, record: Any, hand: Any) -> dict[str, Any]:
        """What a finished hand's replay shows of the game besides its seats, events, result
        and settlement (Shuangkou: the hands as dealt, the teams, the leader, the flip card,
        the seat swap); nothing that was never dealt to a seat."""
        ...

    def table_bot(self, room: Any) -> TableBot:
        """A bot for a server's table at the room's :attr:`Room.bot_level`."""
        ...

    @property
    def bots(self) -> Mapping[str, str]:
        """The bots by name, each with a line on how it plays."""
        ...

    @property
    def figure(self) -> str:
        """The name of :attr:`HandFacts.figures` in reports (``"scoring phases"``)."""
        ...

    def player(self, name: str, seed: int | None, room: Any, budget: Any = None) -> Player:
        """The bot ``name`` (:attr:`bots`; ``ValueError`` naming them otherwise), seeded with
        ``seed``, for ``room``; ``budget`` bounds a searching bot's thinking."""
        ...

    def facts(self, hand: Any, room: Any) -> HandFacts:
        """What a simulation counts of the finished ``hand``."""
        ...

    def outcome(self, hand: Any, room: Any, balances: Sequence[int]) -> dict[str, object]:
        """The referee's report of ``hand``: its events, whether it is over, its game
        facts, and once it is over its settlement for ``balances``."""
        ...
