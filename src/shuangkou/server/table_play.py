"""A table's game: the deal, each action checked by the game, persisted, then announced;
the settlement paid in one database call (tried again until it is paid); a game restored
after a restart; the turn timer's and the bots' actions, a searching bot's in the pool."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

import orjson

from ..errors import Refusal
from ..games.interface import Hand, Settled
from ..store import FencedError, Payout
from .bots import move_seed
from .clock import Turn
from .connection import Connection
from .inbox import (
    Decided,
)
from .metrics import METRICS
from .record import SeatRecord, TableRecord
from .seats import Seat
from .table_base import Match, StateKey, TableGame, log
from .table_send import TableSending

__all__ = ["SETTLE_RETRY_SECONDS", "TablePlay"]

SETTLE_RETRY_SECONDS: tuple[float, ...] = (1.0, 2.0, 5.0, 10.0, 30.0)
"""The waits before each retry of a settlement that failed: the last repeats until it is paid."""

_SETTLING: dict[str, Any] = {
    "type": "notice",
    "code": "settling",
    "message": "The game is over; its settlement could not be saved yet and is being tried again",
    "count": 0,
}


class TablePlay(TableSending):
    """A table's game and its clocks' and bots' actions."""

    async def _start_game(self) -> None:
        config = self.room.config
        # What the last game hands on (R2.1: its winner leads, if still seated here).
        match = self.match
        carried: Mapping[str, Any] | None = None
        continuing: tuple[bool, ...] = ()
        if match is not None:
            carried = match.carried
            continuing = tuple(account == self._account_at(index) for index, account in enumerate(match.accounts))
        game = self.room.family.deal(config, self.services.next_seed(), carried, continuing)  # secure shuffle (R1.4)
        if game.swap is not None:  # C1.4: the two players change places, each with the hand dealt
            first, second = game.swap
            self.seats[first], self.seats[second] = self.seats[second], self.seats[first]
            self._log("seats swapped", seats=list(game.swap))
        game_id = uuid.uuid4().hex
        self.current = TableGame(game, game_id, config)
        record = self._record(game).to_json()
        store, room, fence = self.services.store, self.room.name, self.fence
        await self.services.run_db(
            lambda: store.save_game(game_id, room, config.to_json(), record, "running", self.id, fence)
        )
        METRICS.games.inc()
        self._log("game started")
        self._changed([event.view() for event in game.events])

    def _record(self, game: Hand, carried: Mapping[str, Any] | None = None) -> TableRecord:
        seats = tuple(None if s is None else SeatRecord(s.account.id, s.account.name, s.bot is not None)
                      for s in self.seats)
        return TableRecord(self.id, seats, self.private, game.to_record(), carried)

    async def _apply(self, action: Any, connection: Connection | None = None) -> bool:
        current = self.current
        assert current is not None
        game = current.game
        try:
            events = game.apply(action)
        except Refusal as problem:
            if connection is not None:
                self._refuse(connection, problem.code, problem.message, problem.detail)
            return False
        data = _dumps(self.room.family.action_to_dict(action))
        try:
            await self.services.journal.append(current.game_id, game.seq, data, self.fence)
        except FencedError:
            game.undo()
            raise
        except Exception:
            # Not persisted, so not acknowledged: back to the state before the action.
            log.exception("action not saved", extra={"table": self.id, "game": current.game_id, "seq": game.seq})
            game.undo()
            self._arm_turn()
            if connection is not None:
                self._refuse(connection, "unavailable", "the action could not be saved; try again")
            else:
                METRICS.errors.labels("unavailable").inc()
            return False
        METRICS.actions.inc()
        encoded = [event.view() for event in events]
        for event in encoded:
            if event["type"] == "hosting" and event.get("on"):
                METRICS.hosting.labels(event.get("cause") or "player").inc()
            seat, count = event.get("seat"), event.get("count")
            if event["type"] == "timeout" and isinstance(seat, int) and isinstance(count, int):
                self._notice(seat, count)
        if game.finished:
            await self._settle()
        self._changed(encoded, answering=connection)
        return True

    async def _settle(self) -> bool:
        """Pay the finished game and end it: the settlement computed (R9, C5) on the seats'
        balances as the database holds them when it pays, and stored, in one call to the
        database (one hand-off to its thread: the game's last action waits for it). Whether
        it was paid: a settlement that fails (the database unreachable, say) is logged and
        tried again later (:data:`SETTLE_RETRY_SECONDS`), the players told; until it is
        paid the table keeps its seats and deals no new game."""
        current = self.current
        assert current is not None
        game, game_id, config = current.game, current.game_id, current.config
        store = self.services.store
        accounts = [seat.account.id if seat else 0 for seat in self.seats]
        seats = range(len(self.seats))
        carried = game.carried()
        record = self._record(game, carried).to_json()  # the match goes on from it (after a restart too)
        fence = self.fence

        def settle(balances: list[int]) -> tuple[Settled, Payout]:
            settlement = game.settlement(balances)  # R9, C5
            return settlement, Payout(tuple(settlement.deltas), settlement.house, _dumps(settlement.to_dict()))

        def pay() -> tuple[Settled, dict[int, int]]:
            return store.settle_game(
                game_id, config.edition, accounts, settle, config.allow_negative, f"game {game_id}", record, fence,
                match_table=self.id if carried else None,
            )

        try:
            settlement, balances_after = await self.services.run_db(pay)
        except FencedError:
            raise
        except Exception:
            delay = SETTLE_RETRY_SECONDS[min(self._settle_failures, len(SETTLE_RETRY_SECONDS) - 1)]
            self._settle_failures += 1
            log.exception(
                "settlement failed", extra={"table": self.id, "room": self.room.name, "game": game_id, "retry": delay}
            )
            METRICS.errors.labels("unavailable").inc()
            self.settle_clock.start(game_id, delay)
            for connection in self._connections():
                connection.send(_SETTLING)
            return False
        self._settle_failures = 0
        self.settle_clock.stop()
        METRICS.settlements.inc()
        charge = game.escape_charged(settlement)  # R10.2, C6.2
        self.current = replace(current, settlement=settlement.to_dict(), escape_charge=charge)
        self.match = Match(carried, tuple(self._account_at(index) for index in seats)) if carried else None
        self._log("game settled", result=game.result, deltas=list(settlement.deltas), house=settlement.house)
        for index in seats:
            seat = self.seats[index]
            if seat is not None:
                seat.balance = balances_after.get(seat.account.id, seat.balance)
                seat.ready = seat.bot is not None
                if seat.left:
                    self._free(index)
                else:
                    self._arm_ready(index)
        return True

    async def _settle_again(self, game_id: str) -> None:
        """The retry of a settlement that failed: the game is paid now, or tried again later."""
        current = self.current
        if current is None or current.game_id != game_id or not current.game.finished or current.settlement is not None:
            return
        if await self._settle():
            self._changed([])

    async def _restore(self, game_id: str, record: TableRecord, game: Hand) -> None:
        """Go on with a running game rebuilt from its record and persisted actions (after a
        restart). The players count as disconnected until they reconnect; they are not
        hosted, so their turn timers run as usual (R11.3). Anything that fails raises, and
        the lobby voids the game."""
        for index, seated in enumerate(record.seats):
            if seated is not None:
                store = self.services.store
                account = await self.services.run_db(partial(store.get_account, seated.account))
                if account is None:
                    raise Refusal("bad_record", f"account {seated.account} of game {game_id} is gone")
                bot = self.room.family.table_bot(self.room.config) if seated.bot else None  # at the room's level now
                self._seat(index, Seat(account, self._ready_clock(index), bot, ready=True))
                await self._refresh_balance(index)
        self.current = TableGame(game, game_id, record.game.config)
        self.private = record.private  # an invite table stays one
        # State numbers continue from a base no earlier state can have reached, so a message
        # built against a state from before the restart is always stale.
        self.seq = int(time.time() * 1000)
        self._log("game restored", actions=game.seq)
        if game.finished:
            await self._settle()
        self._changed([])

    async def _resume(self, record: TableRecord) -> bool:
        """Go on with the match of the paid hand ``record`` after a restart: its players
        seated again where they sat — persons not ready, as if disconnected (freed by the
        ready timer unless they come back, R11.4), bots at the room's level — and the match
        it carries on (:class:`Match`). Whether anyone sits (a table of bots alone closes)."""
        for index, seated in enumerate(record.seats):
            account = None
            if seated is not None:
                store = self.services.store
                account = await self.services.run_db(partial(store.get_account, seated.account))
            if seated is None or account is None:
                continue
            bot = self.room.family.table_bot(self.room.config) if seated.bot else None
            self._seat(index, Seat(account, self._ready_clock(index), bot, ready=bot is not None))
            await self._refresh_balance(index)
            self._arm_ready(index)
        if all(seat is None or seat.bot is not None for seat in self.seats):
            for index in range(len(self.seats)):
                self._free(index)
            return False
        self.private = record.private
        accounts = tuple(seat.account if seat is not None else None for seat in record.seats)
        self.match = Match(record.carried or {}, accounts)
        self._log("match resumed", seats=[seat is not None for seat in self.seats])
        self._changed([])
        return True

    async def _turn_timer(self, turn: Turn) -> None:
        current = self.current
        if current is None or not self._turn_is_current(turn):
            return  # the turn (or, for automatic moves, the state) it was armed for is over
        game = current.game
        if turn.kind == "timed":  # every person (and clocked wait) still waited for has run out of time (R11.3)
            for timed_out in [wait.seat for wait in self._timed(game.waiting())]:
                if self.current is current and any(wait.seat == timed_out for wait in game.waiting()):
                    await self._apply(game.timeout_action(timed_out))
            return
        index = next(iter(self._due(game.waiting())), None)
        seat = self.seats[index] if index is not None else None
        if index is None or seat is None:
            return
        bot = seat.bot
        if bot is None:
            await self._apply(game.default_action(index))  # hosting (R11.2)
            return
        search = bot.search(game, index, move_seed(current.game_id, game.seq))
        if search is None:
            await self._apply(bot.act(game, index))
        else:
            self._search(current, index, search)

    def _search(self, current: TableGame, index: int, search: tuple[Callable[..., Any], tuple[Any, ...]]) -> None:
        """Have the searching bot of seat ``index`` search its move in the background (once
        per state): its answer comes back as :class:`Decided`."""
        key = (current.game_id, current.game.seq)
        if self._searching == key:
            return  # asked already (the automatic move was armed again by a change that kept the state)
        self._searching = key
        task = asyncio.get_running_loop().create_task(self._searched(key, index, search))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _searched(self, key: StateKey, index: int, search: tuple[Callable[..., Any], tuple[Any, ...]]) -> None:
        """Search in the expert pool, then post the action to the inbox. A search that fails
        (a worker died) posts none: the bot's quick move is played instead, so the game goes on."""
        function, arguments = search
        action: Any = None
        try:
            with METRICS.expert_search.time():
                action = await self.services.experts.search(function, arguments)
        except Exception:
            log.exception("expert search failed", extra={"table": self.id, "room": self.room.name, "game": key[0]})
            METRICS.errors.labels("internal").inc()
        self.inbox.post(Decided(key, index, action))

    async def _expert_decided(self, key: StateKey, index: int, action: Any) -> None:
        """Play a searched action if the game is still in the state it was searched for;
        an action for a state that is gone (or a search asked for again since) is dropped.
        Without an action (the search failed) the bot's quick move is played."""
        if key != self._searching:
            return
        self._searching = None
        current = self.current
        if current is None or not self.playing or (current.game_id, current.game.seq) != key:
            return  # the state moved on: its automatic move, armed again, searches anew
        seat = self.seats[index]
        if action is None and seat is not None and seat.bot is not None:
            action = seat.bot.act(current.game, index)
        if action is not None:
            await self._apply(action)


def _dumps(data: Any) -> str:
    """JSON text for the store."""
    return orjson.dumps(data).decode()
