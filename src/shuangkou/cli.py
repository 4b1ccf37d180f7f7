"""The ``shuangkou`` command line.

Every subcommand is one ``add_*`` function (:mod:`shuangkou.commandline`): the shell's are
registered with :func:`command`, a game's come from the registry (Shuangkou's
``classify``, ``moves`` and ``demo``). ``main`` builds the parser, runs the chosen command
and turns input errors into exit status 2.

Commands that serve scripts print JSON on stdout (one document per run). Exit status:
0 success, 1 the cards are no combination (``classify``), 2 bad input (a card string
that cannot be read, an unknown rule, an invalid table, a usage error), with
``{"error": "..."}`` on stdout and a message on stderr. See ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from .commandline import (
    EXIT_ERROR,
    EXIT_INVALID,
    EXIT_OK,
    AddParser,
    CommandError,
    Handler,
    Parser,
    Subparsers,
    UsageError,
    emit,
)
from .editions import MAX_AMOUNT
from .games import check_config_main, commands, load_room
from .games.interface import DEFAULT_SEARCH_ROLLOUTS, Budget
from .referee import ScenarioError, referee
from .roomfiles import ConfigError, parse_override
from .simulate import simulate

if TYPE_CHECKING:
    from .server.cluster import ClusterSettings

__all__ = ["COMMANDS", "CommandError", "Parser", "UsageError", "build_parser", "command", "main"]

COMMANDS: list[AddParser] = []
"""The subcommands, in the order ``--help`` lists them."""


def command(add: AddParser) -> AddParser:
    """Register a function that adds one subcommand."""
    COMMANDS.append(add)
    return add


def build_parser() -> argparse.ArgumentParser:
    """The ``shuangkou`` parser with every registered subcommand: the games' own first
    (Shuangkou's ``classify``, ``moves`` and ``demo``), then the shell's."""
    parser = Parser(
        prog="shuangkou",
        description="Rules engine and tools for Rush Shuangkou, the two-player, two-deck climbing game.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in [*commands(), *COMMANDS]:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``shuangkou`` command; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        run: Handler = args.run
        return run(args)
    except CommandError as error:
        emit({"error": str(error)})
        if isinstance(error, UsageError):
            print(error.usage, end="", file=sys.stderr)
        print(f"shuangkou: error: {error}", file=sys.stderr)
        return EXIT_ERROR


# ---------------------------------------------------------------------------
# Shared options and helpers


# ---------------------------------------------------------------------------
# check-config, referee, simulate


@command
def add_check_config(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "check-config",
        help="validate a room configuration file and print it resolved (JSON)",
        description="Validate a room configuration (a TOML file, or the shipped 'points' or 'wealth') "
        "and print the resolved configuration as JSON; errors name the file and key (exit 2).",
    )
    parser.add_argument("file", metavar="FILE", help="a TOML file, or 'points' / 'wealth'")
    parser.add_argument("--set", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                        help="override keys, e.g. turn_seconds=15 four_joker_bomb=largest")
    parser.set_defaults(run=run_check_config)


def run_check_config(args: argparse.Namespace) -> int:
    return check_config_main(args.file, _overrides(args.set))


def _overrides(assignments: list[str]) -> dict[str, object]:
    overrides: dict[str, object] = {}
    for assignment in assignments:
        try:
            key, value = parse_override(assignment)
        except ValueError as error:
            raise CommandError(f"--set: {error}") from None
        overrides[key] = value
    return overrides


@command
def add_referee(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "referee",
        help="play a scenario (JSON) and print the outcome (JSON)",
        description="Play the scenario in FILE ('-' for standard input) and print events, result, scoring "
        "phases and settlement as JSON. An illegal action or invalid scenario prints "
        '{"error": {...}} and exits 2. Format: docs/referee.md.',
    )
    parser.add_argument("scenario", metavar="SCENARIO.json", help="scenario file, or - for standard input")
    parser.set_defaults(run=run_referee)


def run_referee(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.scenario == "-" else Path(args.scenario).read_text(encoding="utf-8")
        data = json.loads(text)
    except OSError as error:
        return _scenario_error(ScenarioError("bad_scenario", f"{args.scenario}: {error.strerror}"))
    except UnicodeDecodeError as error:
        return _scenario_error(ScenarioError("bad_scenario", f"{args.scenario}: not UTF-8 text: {error.reason}"))
    except json.JSONDecodeError as error:
        return _scenario_error(ScenarioError("bad_scenario", f"{args.scenario}: invalid JSON: {error}"))
    try:
        emit(referee(data))
    except ScenarioError as error:
        return _scenario_error(error)
    return EXIT_OK


def _scenario_error(error: ScenarioError) -> int:
    emit(error.outcome())
    print(f"shuangkou referee: {error.message}", file=sys.stderr)
    return EXIT_ERROR


@command
def add_simulate(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many games between bots and report the room's statistics",
        description="Play N seeded games between two bots (seats swapped every other game; in a four-seat "
        "room each bot plays a team, the teams swapped every other game) and report win rates with 95%% "
        "confidence intervals, transfers, result levels, scoring phases, escapes and hosting.",
    )
    parser.add_argument("--config", default="points", help="room file or shipped name (default points)")
    parser.add_argument("--set", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                        help="override configuration keys")
    parser.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    parser.add_argument("--bots", default="greedy,hosting",
                        help="two of hosting, greedy, random, hint, expert (four seats: the bots of the teams)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--timeout-rate", type=float, default=0.0, help="chance a turn times out")
    parser.add_argument("--escape-rate", type=float, default=0.0, help="chance a game has an escape")
    parser.add_argument("--expert-rollouts", type=int, default=DEFAULT_SEARCH_ROLLOUTS, metavar="N",
                        help=f"the expert bot's rollouts per move (default {DEFAULT_SEARCH_ROLLOUTS})")
    parser.add_argument("--expert-ms", type=float, metavar="MS",
                        help="the expert bot's wall time per move at most, in milliseconds (default: no limit)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(run=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    if args.games < 1 or args.jobs < 1:
        raise CommandError("--games and --jobs must be at least 1")
    try:
        budget = Budget(rollouts=args.expert_rollouts, milliseconds=args.expert_ms)
    except ValueError as error:
        raise CommandError(str(error)) from None
    try:
        game, config = load_room(args.config, _overrides(args.set))
    except ConfigError as error:
        raise CommandError(str(error)) from None
    names = tuple(name.strip() for name in args.bots.split(","))
    if len(names) != 2 or any(name not in game.bots for name in names):
        choices = ", ".join(game.bots)
        raise CommandError(f"--bots: expected two of {choices} separated by a comma, got {args.bots!r}")
    with tqdm(total=args.games, unit="game", file=sys.stderr, disable=None) as bar:
        report = simulate(config, (names[0], names[1]), args.games, args.seed, args.jobs,
                          args.timeout_rate, args.escape_rate, bar.update, budget)
    if args.json:
        emit(report.to_dict())
    else:
        print(report.to_text())
    return EXIT_OK


# ---------------------------------------------------------------------------
# serve


@command
def add_serve(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the game server (web client, WebSocket protocol, HTTP API)",
        description="Run the game server: the shipped rooms (or every *.toml in --rooms), SQLite in the "
        "data directory (or --database-url), listening on localhost.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--data-dir", default="data", help="SQLite database and session secret (default ./data)")
    parser.add_argument("--database-url", help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db")
    parser.add_argument("--rooms", metavar="DIR", help="directory of room files (*.toml); default: shipped rooms")
    parser.add_argument("--operator-token", help="token for the operator API (default: $SHUANGKOU_OPERATOR_TOKEN)")
    parser.add_argument("--bot-delay", type=float, default=0.6, help="seconds before a bot or hosting move")
    parser.add_argument("--guests-per-minute", type=float, metavar="N",
                        help="new guest accounts a client address may make per minute, after a burst "
                        "(default 6, or $SHUANGKOU_GUESTS_PER_MINUTE; 0: no limit)")
    parser.add_argument("--guest-burst", type=float, default=30.0, metavar="N",
                        help="new guest accounts a client address may make at once (default 30)")
    parser.add_argument("--guest-wealth", metavar="N",
                        help="the wealth (coins, which move between players) of a new guest account: N, or "
                        "'room' for the rooms' starting balance (default 0, or $SHUANGKOU_GUEST_WEALTH: an "
                        "operator grants it)")
    parser.add_argument("--connections-per-address", type=int, metavar="N",
                        help="connections a client address may hold open at once (default 256, or "
                        "$SHUANGKOU_CONNECTIONS_PER_ADDRESS; 0: no limit, as behind a reverse proxy that limits them)")
    parser.add_argument("--address-rate", type=float, metavar="N",
                        help="WebSocket messages a second a client address may send, all its connections together, "
                        "after a burst of twice as many (default 200, or $SHUANGKOU_ADDRESS_RATE; 0: no limit)")
    parser.add_argument("--max-connections", type=int, metavar="N",
                        help="connections in all; past them only the health check is answered (default: the "
                        "process's file descriptor limit less 256)")
    parser.add_argument(
        "--expert-workers", type=int, metavar="N",
        help="processes that search the moves of expert bots (rooms with bot_level = \"expert\"); "
        "default: one fewer than the cores, at least 1",
    )
    parser.add_argument(
        "--commit-delay", type=float, metavar="MS",
        help="milliseconds a batch of game actions waits for more before it is committed (default 0 on SQLite, "
        "10 on PostgreSQL)",
    )
    parser.add_argument(
        "--seed", type=int, help="for tests and demos only: deal the n-th game with seed + n, so deals repeat "
        "(default: a secure shuffle, as production needs, R1.4)"
    )
    parser.add_argument("--ws-deflate", action="store_true",
                        help="compress WebSocket messages (permessage-deflate): less bandwidth, more CPU and memory")
    cluster = parser.add_argument_group("cluster", "several servers (nodes) on one PostgreSQL database and one Redis")
    cluster.add_argument("--redis-url", help="Redis URL (redis://host:6379/0): makes this server a node of a cluster")
    cluster.add_argument("--node-id", help="this node's id, unique in the cluster (needed with --redis-url)")
    cluster.add_argument("--public-url", help="the URL players reach this node at (default http://HOST:PORT)")
    cluster.add_argument("--cluster", default="shuangkou",
                         help="the cluster's name: its Redis keys start with NAME: (default shuangkou)")
    cluster.add_argument("--drain-seconds", type=float, default=30.0,
                         help="on SIGTERM, how long games in progress may go on before other nodes take them over "
                         "(default 30)")
    parser.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:

    from .server.app import ServerSettings, StartError, serve
    from .server.logs import configure_logging
    from .server.settings import (
        ADDRESS_RATE_VARIABLE,
        CONNECTIONS_PER_ADDRESS_VARIABLE,
        GUEST_WEALTH_VARIABLE,
        GUESTS_PER_MINUTE_VARIABLE,
        database_url_in,
    )

    data_dir = Path(args.data_dir)
    rooms = Path(args.rooms) if args.rooms else None
    if rooms is not None and not rooms.is_dir():
        raise CommandError(f"--rooms: {rooms} is not a directory")
    if args.expert_workers is not None and args.expert_workers < 1:
        raise CommandError(f"--expert-workers: expected at least 1, got {args.expert_workers}")
    if args.max_connections is not None and args.max_connections < 1:
        raise CommandError(f"--max-connections: expected at least 1, got {args.max_connections}")
    if args.commit_delay is not None and not args.commit_delay >= 0:
        raise CommandError(f"--commit-delay: expected 0 or more milliseconds, got {args.commit_delay}")
    settings = ServerSettings(
        database_url=args.database_url or database_url_in(data_dir),
        rooms_dir=rooms,
        data_dir=data_dir,
        operator_token=args.operator_token or os.environ.get("SHUANGKOU_OPERATOR_TOKEN"),
        bot_delay=args.bot_delay,
        expert_workers=args.expert_workers,
        commit_delay=args.commit_delay / 1000 if args.commit_delay is not None else None,
        seed=args.seed,
        ws_deflate=args.ws_deflate,
        guests_per_minute=_setting(args.guests_per_minute, GUESTS_PER_MINUTE_VARIABLE, 6.0),
        guest_burst=args.guest_burst,
        guest_wealth=_guest_wealth(args.guest_wealth or os.environ.get(GUEST_WEALTH_VARIABLE, "0")),
        connections_per_address=int(_setting(args.connections_per_address, CONNECTIONS_PER_ADDRESS_VARIABLE, 256)),
        address_rate=(rate := _setting(args.address_rate, ADDRESS_RATE_VARIABLE, 200.0)),
        address_burst=2 * rate,
        max_connections=args.max_connections,
        cluster=_cluster_settings(args),
        drain_seconds=args.drain_seconds,
    )
    configure_logging()

    def announce() -> None:
        print(f"Shuangkou is running at http://{args.host}:{args.port}/  (Ctrl+C stops it)", flush=True)

    try:
        serve(settings, args.host, args.port, on_ready=announce)
    except StartError as problem:
        raise CommandError(str(problem)) from None
    return EXIT_OK


def _guest_wealth(text: str) -> int | None:
    """``--guest-wealth``: a number of coins, or ``room`` (None: the rooms' starting balance)."""
    if text == "room":
        return None
    try:
        wealth = int(text)
    except ValueError:
        raise CommandError(f"--guest-wealth: expected a number of coins or 'room', got {text!r}") from None
    if not 0 <= wealth <= MAX_AMOUNT:
        raise CommandError(f"--guest-wealth: expected 0 to {MAX_AMOUNT}, got {wealth}")
    return wealth


def _setting(given: float | None, variable: str, default: float) -> float:
    """A limit of ``serve``: as given, else the environment's ``variable``, else ``default``
    (tests and load tests, whose clients share one address, turn them off by the environment,
    which an older copy of the server ignores)."""
    if given is not None:
        if given < 0:
            raise CommandError(f"expected 0 (no limit) or more, got {given}")
        return given
    try:
        value = float(os.environ.get(variable, str(default)))
    except ValueError:
        raise CommandError(f"${variable} must be a number, not {os.environ[variable]!r}") from None
    if value < 0:
        raise CommandError(f"${variable} must be 0 (no limit) or more, not {value}")
    return value


def _cluster_settings(args: argparse.Namespace) -> ClusterSettings | None:
    """The node's cluster settings from ``serve``'s options (None: a single server)."""
    from .server.cluster import ClusterSettings

    if args.redis_url is None:
        given = [option for option, value in (("--node-id", args.node_id), ("--public-url", args.public_url)) if value]
        if given:
            raise CommandError(f"{' and '.join(given)} make this server a node of a cluster: give --redis-url too")
        return None
    if not args.node_id:
        raise CommandError("--redis-url makes this server a node of a cluster: give it a --node-id")
    for name, value in (("--node-id", args.node_id), ("--cluster", args.cluster)):
        if not value or len(value) > 64 or not all(c.isalnum() or c in "-_." for c in value):
            raise CommandError(f"{name} {value!r}: 1 to 64 letters, digits, '-', '_' or '.'")
    public_url = args.public_url or f"http://{args.host}:{args.port}"
    if not public_url.startswith(("http://", "https://")):
        raise CommandError(f"--public-url {public_url!r}: an http:// or https:// URL")
    return ClusterSettings(args.redis_url, args.node_id, public_url.rstrip("/"), args.cluster)


# ---------------------------------------------------------------------------
# replay, protocol-schema


@command
def add_replay(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="re-run a stored game and check its settlement against the ledger (JSON)",
        description="Replay the stored game GAME_ID from its record and actions with the rules core, settle "
        "it again and compare with its ledger rows and stored settlement. Prints "
        '{"game", "status", "matches", "problems", "settlement", "ledger", ...}; exit 0 when it matches, '
        "1 when it does not, 2 for an unknown game or database.",
    )
    parser.add_argument(
        "game", metavar="GAME_ID",
        help="the game's id (as in the server log or /api/admin/games), or a prefix of exactly one game's id",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--database-url", help="SQLAlchemy URL of the server's database")
    where.add_argument("--data-dir", default="data", help="the server's data directory (default ./data)")
    parser.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    from .server.replay import check_game, resolve_game_id
    from .server.settings import DATABASE_FILE
    from .store import Store

    url = args.database_url
    if url is None:
        path = Path(args.data_dir) / DATABASE_FILE
        if not path.is_file():
            raise CommandError(f"--data-dir: no database {path}")
        url = f"sqlite:///{path}"
    try:
        store = Store(url)
    except Exception as error:  # a URL or server problem: bad input
        raise CommandError(f"cannot open the database: {error}") from None
    with store:
        try:
            game_id = resolve_game_id(store, args.game)
        except ValueError as error:
            raise CommandError(str(error)) from None
        report = check_game(store, game_id) if game_id is not None else None
    if report is None:
        raise CommandError(f"no game {args.game!r} in {store.url}")
    emit(report)
    return EXIT_OK if report["matches"] else EXIT_INVALID


@command
def add_protocol_schema(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "protocol-schema",
        help="print the JSON Schema of every WebSocket message (JSON)",
        description="Print the JSON Schema of the client messages and of the server messages of the "
        "game server's WebSocket protocol (docs/protocol.md).",
    )
    parser.set_defaults(run=run_protocol_schema)


def run_protocol_schema(args: argparse.Namespace) -> int:
    from .server.protocol import schemas

    print(json.dumps(schemas(), indent=2, ensure_ascii=False))
    return EXIT_OK


# ---------------------------------------------------------------------------
# loadtest


@command
def add_loadtest(subparsers: Subparsers) -> None:
    from .loadtest.run import add_arguments

    parser = subparsers.add_parser(
        "loadtest",
        help="load-test the game server with bot players over WebSockets on this machine",
        description="Start the server (or use --url, loopback only), open two bot connections per table "
        "(quick match, playing from hints after a think time), measure for --duration seconds and print "
        "action latency percentiles, actions per second, errors by code and server CPU. Exit 0 when p99 "
        "stayed under the target with no error, 1 when not.",
    )
    add_arguments(parser)
    parser.set_defaults(run=run_loadtest)


def run_loadtest(args: argparse.Namespace) -> int:
    from .loadtest.run import run_command
    from .server.process import ServerStartError

    try:
        return run_command(args)
    except ValueError as error:
        raise CommandError(str(error)) from None
    except ServerStartError as error:  # e.g. an option given with --server-arg that serve refuses
        raise CommandError(f"a server of the run did not start: {error}") from None


if __name__ == "__main__":
    sys.exit(main())
