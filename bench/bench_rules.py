"""Rules-engine benchmark: medians on random dealt 27-card hands, one core (CPU time of
this process).

    .venv/bin/python bench/bench_rules.py [--hands 300] [--games 300] [--seed 1]
                                          [--expert-games 10] [--expert-rollouts 60]

Prints each figure beside its target and, for the move generator, its speed against the
exhaustive reference on small hands measured in the same run (machines here are noisy,
so ratios are the figures to compare between runs). Whole games are played with two
seats (the points room) and with four (the classic room, RULES-CLASSIC). Last, the expert
bot's time per decision (median and 95th percentile) in games against greedy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from shuangkou import DECK, classify, counts_of, hosting_move, legal_moves
from shuangkou.cards import Counts
from shuangkou.games.shuangkou.bots import Bot, GreedyBot, HostingBot, RandomBot, Seen, whole_hand
from shuangkou.games.shuangkou.combos import Combo
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.expert import DEFAULT_ROLLOUTS, Budget, ExpertBot, candidates
from shuangkou.games.shuangkou.game import Game
from shuangkou.simulate import play_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from reference import ref_legal_moves


def median_us(function: Callable[[], object], repeat: int = 1) -> float:
    """Median processor time of one call, in microseconds (this process's own CPU time, so
    other work on the machine disturbs it less than wall time)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1e6


def dealt_hands(rng: random.Random, count: int, jokers: int | None = None) -> list[Counts]:
    """Random 27-card hands from a shuffled double deck (with exactly ``jokers`` if given)."""
    hands: list[Counts] = []
    deck = list(DECK)
    while len(hands) < count:
        rng.shuffle(deck)
        hand = deck[:27]
        if jokers is None or sum(card.rank.is_joker for card in hand) == jokers:
            hands.append(counts_of(hand))
    return hands


def per_call(label: str, calls: list[Callable[[], object]], target_us: float | None) -> float:
    """Print and return the median over the calls."""
    times = [median_us(call) for call in calls]
    median = statistics.median(times)
    target = f"(target < {target_us:,.0f} µs)" if target_us else ""
    print(f"{label:<52} {median:>10,.1f} µs  p90 {statistics.quantiles(times, n=10)[-1]:>9,.1f} µs {target}")
    return median


def whole_games(config: RoomConfig, games: int, targets: bool) -> None:
    """Complete games under ``config`` (two or four seats): every seat on the hosting
    choice, every seat uniformly random, and those random games replayed action by action;
    ``targets`` prints the targets, which are set for two seats."""
    seats = range(config.seats)
    label = f", {config.seats} seats"
    start = time.process_time()
    for seed in range(games):
        play_game(config, [HostingBot() for _ in seats], seed)
    games_per_second = games / (time.process_time() - start)
    target = " (target ≥ 1,000)" if targets else ""
    print(f"\n{'hosting vs hosting, complete games' + label:<52} {games_per_second:>10,.0f} games/s{target}")

    turns = 0
    start = time.process_time()
    random_games = []
    for seed in range(games):
        game = play_game(config, [RandomBot(seed + seat) for seat in seats], seed)
        turns += len(game.actions)
        random_games.append(game)
    turns_per_second = turns / (time.process_time() - start)
    target = " (target ≥ 3,000)" if targets else ""
    print(f"{'uniform random among all legal moves' + label:<52} {turns_per_second:>10,.0f} turns/s{target}")

    applying = 0.0
    for played in random_games:  # the actions again on a fresh deal: the cost of Game.apply alone
        game = Game.deal(config, played.seed)
        start = time.process_time()
        for action in played.actions:
            game.apply(action)
        applying += time.process_time() - start
    print(f"{'apply one action (replaying those games)':<52} {applying / turns * 1e6:>10,.1f} µs")


def expert_decisions(config: RoomConfig, games: int, rollouts: int) -> None:
    """CPU time of the expert's decisions (all of them, the trivial ones included, and
    the searched ones alone) in games against greedy, seats swapped."""
    times: list[float] = []
    searched: list[float] = []

    class Timed:
        def __init__(self, bot: ExpertBot) -> None:
            self.bot = bot

        def choose(self, seen: Seen) -> Combo | None:
            trivial = len(candidates(seen, 2)) < 2 or whole_hand(seen.hand, seen.table, seen.rules) is not None
            start = time.process_time()
            move = self.bot.choose(seen)
            elapsed = (time.process_time() - start) * 1000
            times.append(elapsed)
            if not trivial:
                searched.append(elapsed)
            return move

    for seed in range(games):
        bots: list[Bot] = [
            Timed(ExpertBot(config, seed + seat, Budget(rollouts=rollouts))) if (seat + seed) % 2 == 0 else GreedyBot()
            for seat in range(config.seats)
        ]
        play_game(config, bots, seed)
    for label, figures in (("every decision", times), ("searched decisions", searched)):
        print(f"{'expert, ' + label + f' ({config.seats} seats, {rollouts} rollouts)':<52} "
              f"median {statistics.median(figures):>6,.1f} ms  p95 {statistics.quantiles(figures, n=20)[-1]:>6,.1f} ms"
              f"  ({len(figures)} moves{', target ≤ 200 ms' if label == 'searched decisions' else ''})")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--expert-games", type=int, default=10, help="games of the expert against greedy timed")
    parser.add_argument("--expert-rollouts", type=int, default=DEFAULT_ROLLOUTS, help="the expert's rollouts per move")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = dealt_hands(rng, args.hands)
    two_jokers = dealt_hands(rng, args.hands, jokers=2)
    print(f"{len(hands)} random dealt 27-card hands (seed {args.seed}); medians per call\n")

    played: list[Counts] = []
    tables: list[tuple[Counts, Combo]] = []
    for index, hand in enumerate(hands):
        moves = legal_moves(hand)
        played.append(rng.choice(moves).cards)
        other = hands[(index + 1) % len(hands)]
        ordinary = [move for move in legal_moves(other) if not move.is_bomb and move.size <= 6]
        tables.append((hand, rng.choice(ordinary)))

    per_call("classify a played set", [lambda cards=cards: classify(cards) for cards in played], None)
    per_call("all lead moves, 27 cards", [lambda hand=hand: legal_moves(hand) for hand in hands], None)
    lead_two = per_call(
        "all lead moves, 27 cards holding two jokers",
        [lambda hand=hand: legal_moves(hand) for hand in two_jokers],
        500,
    )
    per_call(
        "all beating moves, typical table (≤ 6 cards)",
        [lambda hand=hand, table=table: legal_moves(hand, table) for hand, table in tables],
        None,
    )
    per_call(
        "hosting choice, typical table",
        [lambda hand=hand, table=table: hosting_move(hand, table) for hand, table in tables],
        50,
    )

    small = [counts_of(rng.sample(DECK, 9)) for _ in range(40)]
    fast = statistics.median(median_us(lambda hand=hand: legal_moves(hand)) for hand in small)
    slow = statistics.median(median_us(lambda hand=hand: ref_legal_moves(hand)) for hand in small)
    print(f"{'lead moves, 9 cards: generator vs exhaustive reference':<52} {fast:>10,.1f} µs  "
          f"vs {slow:,.0f} µs  ({slow / fast:,.0f}× faster)")

    for room, targets in (("points", True), ("classic", False)):
        whole_games(load_config(room), args.games, targets)
    print(f"\nlead moves with two jokers: {lead_two / 500:.2f} of the 0.5 ms target")
    if args.expert_games > 0:  # --expert-games 0 leaves the expert out
        for room in ("points", "classic"):
            expert_decisions(load_config(room), args.expert_games, args.expert_rollouts)


if __name__ == "__main__":
    main()
