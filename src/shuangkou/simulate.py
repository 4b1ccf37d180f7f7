"""Playing games between bots, and many of them for a room's statistics, for any
registered game (:mod:`shuangkou.games`).

:func:`simulate` plays N seeded games between two bots (seats swapped every other game)
under a room configuration and reports what an operator needs to tune the room's economy:
win rates with 95 % confidence intervals, transfers per game, result levels, the game's
own figure per seat (Shuangkou: scoring phases), escapes and hosting. Optional timeouts
and escapes make the games behave like real tables (R10, R11.3). In a room of more seats
each bot plays every other seat: with four Shuangkou seats, a team (C1.1), the teams
swapped every other game. With an odd number of seats no such split is fair: the first
bot plays one seat, rotating over the games, and the second bot every other seat
(Royalist's five: one seat A, four seats B, whatever roles the cards give them).
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from .games import family
from .games.interface import Hand, Player, Room

__all__ = ["GameSummary", "Report", "play_game", "simulate", "wilson_interval"]


def play_game(
    config: Room,
    bots: Sequence[Player],
    seed: int | None = None,
    timeout_rate: float = 0.0,
    escape_rate: float = 0.0,
) -> Any:
    """Deal a hand of the room's game (seeded when ``seed`` is given) and play it to the end
    with one bot per seat. Each turn times out with probability ``timeout_rate`` (R11.3);
    with probability ``escape_rate`` one seat leaves at a random turn (R10). A hosted seat
    makes the game's default action (R11.2). Returns the finished hand."""
    hand: Hand = family(config.game).deal(config, seed)
    chance = random.Random(seed)
    escape_turn = chance.randrange(60) if chance.random() < escape_rate else -1
    turn = 0
    while waiting := hand.waiting():
        seat = waiting[0].seat
        escape = hand.escape_action(seat) if turn == escape_turn else None
        if escape is not None:
            hand.apply(escape)
        elif hand.hosted(seat):
            hand.apply(hand.default_action(seat))
        elif chance.random() < timeout_rate:
            hand.apply(hand.timeout_action(seat))
        else:
            hand.apply(bots[seat].act(hand, seat))
        turn += 1
    return hand


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One simulated game, from the bots' point of view (index into the bot list). With
    more seats than bots a bot plays several: ``winner`` is the bot of the first winning
    seat (with four Shuangkou seats, the winning team's, C5.2; -1 when no seat won, a
    draw), ``won`` says of each bot whether one of its seats won, ``deltas`` the sum over
    the bot's seats and ``figures`` the largest of its seats' figures (a team's phase, C4.2)."""

    winner: int
    won: tuple[bool, bool]
    result: str
    deltas: tuple[int, int]
    house: int
    figures: tuple[int, int]
    timeouts: int
    hosting_on: int
    escapes: int


def bot_of_seat(seat: int, seed: int, seats: int = 2) -> int:
    """The bot (0 or 1) that plays ``seat`` in the game of ``seed`` at a table of ``seats``.
    With an even number of seats, bot 0 in the even seats on even seeds and in the odd
    seats on odd seeds, so each bot plays each seat, and with four seats each team (C1.1:
    seats 0+2 and 1+3), equally often. With an odd number, bot 0 in seat ``seed mod
    seats`` only (each seat in turn) and bot 1 in all the others."""
    if seats % 2:
        return 0 if seat == seed % seats else 1
    return (seat + seed) % 2


def _play_one(
    config: Room, names: tuple[str, str], seed: int, timeout_rate: float, escape_rate: float, budget: Any = None,
) -> GameSummary:
    game = family(config.game)
    seats = range(config.seats)
    bot_at = [bot_of_seat(seat, seed, config.seats) for seat in seats]
    bots = [game.player(names[bot_at[seat]], seed + seat, config, budget) for seat in seats]
    hand = play_game(config, bots, seed, timeout_rate, escape_rate)
    settlement = hand.settlement([config.starting_balance] * config.seats)
    facts = game.facts(hand, config)
    return GameSummary(
        winner=bot_at[facts.winners[0]] if facts.winners else -1,
        won=(any(bot_at[seat] == 0 for seat in facts.winners), any(bot_at[seat] == 1 for seat in facts.winners)),
        result=facts.result,
        deltas=(
            sum(settlement.deltas[seat] for seat in seats if bot_at[seat] == 0),
            sum(settlement.deltas[seat] for seat in seats if bot_at[seat] == 1),
        ),
        house=settlement.house,
        figures=(
            max(facts.figures[seat] for seat in seats if bot_at[seat] == 0),
            max(facts.figures[seat] for seat in seats if bot_at[seat] == 1),
        ),
        timeouts=facts.timeouts,
        hosting_on=facts.hosting_on,
        escapes=int(facts.escaped),
    )


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for z = 1.96)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - margin), min(1.0, centre + margin))


@dataclass(frozen=True, slots=True)
class BotStats:
    """One bot's figures over a simulation."""

    bot: str
    wins: int
    win_rate: float
    win_rate_95: tuple[float, float]
    mean_delta: float
    stdev_delta: float
    mean_figure: float
    """The mean of the bot's largest figure per game (Royalist: the lone seat's units)."""
    figures: dict[str, float]
    """How often the bot's largest figure took each value (the report names it by the game's figure)."""
    wins_by_result: dict[str, float]


@dataclass
class Report:
    """Statistics of a simulation in a room of ``seats`` seats; ``figure`` names the game's
    figure per seat (:attr:`~shuangkou.games.interface.GameFamily.figure`)."""

    config: str
    bots: tuple[str, str]
    games: list[GameSummary] = field(default_factory=list)
    seats: int = 2
    figure: str = "scoring phases"

    def bot_stats(self) -> list[BotStats]:
        """Win rate (with its 95 % Wilson interval), transfers, the game's figures and the
        share of games won by each result, per bot."""
        count = len(self.games)
        stats = []
        for k, name in enumerate(self.bots):
            won = Counter(game.result for game in self.games if game.won[k])
            wins = won.total()
            deltas = [game.deltas[k] for game in self.games]
            low, high = wilson_interval(wins, count)
            stats.append(BotStats(
                bot=name,
                wins=wins,
                win_rate=wins / count if count else 0.0,
                win_rate_95=(round(low, 4), round(high, 4)),
                mean_delta=statistics.fmean(deltas) if deltas else 0.0,
                stdev_delta=statistics.stdev(deltas) if count > 1 else 0.0,
                mean_figure=statistics.fmean(game.figures[k] for game in self.games) if count else 0.0,
                figures=_frequencies(game.figures[k] for game in self.games),
                wins_by_result={result: won[result] / count for result in sorted(won)},
            ))
        return stats

    def to_dict(self) -> dict[str, object]:
        """The report as JSON-ready data."""
        count = len(self.games)
        transfers = [abs(game.deltas[0]) for game in self.games]
        return {
            "config": self.config,
            "games": count,
            "bots": [self._bot_dict(stats, index) for index, stats in enumerate(self.bot_stats())],
            "mean_transfer": statistics.fmean(transfers) if transfers else 0.0,
            "stdev_transfer": statistics.stdev(transfers) if count > 1 else 0.0,
            "max_transfer": max(transfers, default=0),
            "house_total": sum(game.house for game in self.games),
            "results": _frequencies(game.result for game in self.games),
            "escapes": sum(game.escapes for game in self.games),
            "timeouts": sum(game.timeouts for game in self.games),
            "hosting_switched_on": sum(game.hosting_on for game in self.games),
        }

    def _bot_dict(self, stats: BotStats, index: int) -> dict[str, object]:
        data = asdict(stats)
        wins_by_result = data.pop("wins_by_result")
        mean_figure = data.pop("mean_figure")
        if self._lone_seat and index == 0:  # the lone seat's mean figure (Royalist: its mean units)
            data[f"mean_{self.figure.replace(' ', '_')}"] = mean_figure
        data[self.figure.replace(" ", "_")] = data.pop("figures")
        if self._several_seats:  # one seat each: the results of the room say it all
            data["wins_by_result"] = wins_by_result
        return data

    @property
    def _lone_seat(self) -> bool:
        """The first bot plays one seat against the second in all others (:func:`bot_of_seat`)."""
        return self.seats % 2 == 1

    @property
    def _several_seats(self) -> bool:
        """Each bot plays several seats (with four Shuangkou seats, a team)."""
        return self.seats > len(self.bots)

    def to_text(self) -> str:
        """A short human-readable report."""
        data = self.to_dict()
        lone = self._lone_seat  # one seat against the others: say so
        teams = self._several_seats and not lone  # each bot is a team: say so, and how it won
        setting = ", one team per bot" if teams else ", one seat against the others" if lone else ""
        lines = [f"{len(self.games)} games, room {self.config!r}{setting}"]
        wins, per_game, figures = ("team wins", "per game (both players)", f"team {self.figure}") if teams else (
            "wins", "per game", self.figure
        )
        for index, bot in enumerate(self.bot_stats()):
            low, high = bot.win_rate_95
            lines.append(
                f"  {bot.bot:<8} {wins} {bot.win_rate:6.1%} (95% CI {low:.1%}-{high:.1%}), "
                f"mean {bot.mean_delta:+,.1f} ± {bot.stdev_delta:,.1f} {per_game}"
                + (f", mean {self.figure} {bot.mean_figure:+.2f}" if lone and index == 0 else "")
            )
            if teams or lone:
                won = ", ".join(f"{result} {share:.1%}" for result, share in bot.wins_by_result.items())
                lines.append(f"           won by {won}")
            shares = ", ".join(f"{value}: {share:.1%}" for value, share in bot.figures.items())
            lines.append(f"           {figures} {shares}")
        results = _frequencies(game.result for game in self.games)
        lines.append("  results: " + ", ".join(f"{name} {share:.1%}" for name, share in results.items()))
        lines.append(
            f"  transfer per game: mean {data['mean_transfer']:,.1f}, stdev {data['stdev_transfer']:,.1f}, "
            f"max {data['max_transfer']:,}; house took {data['house_total']:,}"
        )
        lines.append(
            f"  escapes {data['escapes']}, timeouts {data['timeouts']}, "
            f"hosting switched on {data['hosting_switched_on']} times"
        )
        return "\n".join(lines)


def _frequencies(values: Iterator[object] | Sequence[object]) -> dict[str, float]:
    counts = Counter(str(value) for value in values)
    total = sum(counts.values())
    return {key: counts[key] / total for key in sorted(counts, key=_natural)}


def _natural(key: str) -> tuple[int, str]:
    return (int(key), "") if key.isdigit() else (1 << 30, key)


def _play_chunk(
    args: tuple[Room, tuple[str, str], list[int], float, float, Any],
) -> list[GameSummary]:
    config, names, seeds, timeout_rate, escape_rate, budget = args
    return [_play_one(config, names, seed, timeout_rate, escape_rate, budget) for seed in seeds]


def simulate(
    config: Room,
    bots: tuple[str, str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    timeout_rate: float = 0.0,
    escape_rate: float = 0.0,
    progress: Callable[[int], object] | None = None,
    expert: Any = None,
) -> Report:
    """Play ``games`` games of the room's game with seeds ``seed``, ``seed + 1``, … and
    collect a report. ``progress`` is called with the number of games finished in each
    step; ``expert`` is the search budget of a searching bot (Shuangkou's expert:
    :class:`~shuangkou.games.shuangkou.expert.Budget`)."""
    game = family(config.game)
    for name in bots:
        game.player(name, None, config)  # fails early on an unknown name
    report = Report(config.name, bots, seats=config.seats, figure=game.figure)
    seeds = list(range(seed, seed + games))
    chunk = 50
    chunks = [
        (config, bots, seeds[i : i + chunk], timeout_rate, escape_rate, expert) for i in range(0, games, chunk)
    ]
    if jobs <= 1:
        results: Iterator[list[GameSummary]] = map(_play_chunk, chunks)
        for summaries in results:
            report.games.extend(summaries)
            if progress:
                progress(len(summaries))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for summaries in pool.map(_play_chunk, chunks):
                report.games.extend(summaries)
                if progress:
                    progress(len(summaries))
    return report
