"""compose.yaml and the Dockerfile (docs/deployment.md) stay in step with ``shuangkou serve``.

Docker need not be installed: the files are read as Docker would read them (YAML, the
variables of compose.yaml with their defaults, the Dockerfile's JSON-form instructions),
and every node's command is parsed by the ``serve`` command's own parser and checked as a
node's options are checked at start-up. The nodes' ports, URLs and the services they name
are checked against each other.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from shuangkou.cli import _cluster_settings, build_parser

ROOT = Path(__file__).resolve().parent.parent
ENVIRONMENT = {"SHUANGKOU_OPERATOR_TOKEN": "s3cret"}  # the one variable compose.yaml requires


def interpolate(value: Any, environment: dict[str, str]) -> Any:
    """compose.yaml's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` resolved as
    Compose resolves them (a required variable that is unset fails)."""
    if isinstance(value, dict):
        return {key: interpolate(item, environment) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolate(item, environment) for item in value]
    if not isinstance(value, str):
        return value

    def resolve(match: re.Match[str]) -> str:
        name, operator, word = match.group(1), match.group(2), match.group(3)
        if environment.get(name):
            return environment[name]
        assert operator != ":?", f"compose.yaml needs {name}: {word}"
        return word if operator == ":-" else ""

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", resolve, value)


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    resolved: dict[str, Any] = interpolate(loaded, ENVIRONMENT)
    return resolved


def dockerfile() -> dict[str, list[Any]]:
    """The Dockerfile's instructions (continued lines joined): name → arguments of each."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    instructions: dict[str, list[Any]] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, rest = line.strip().partition(" ")
            argument = json.loads(rest) if rest.startswith("[") else rest
            instructions.setdefault(name.upper(), []).append(argument)
    return instructions


def serve_options(command: list[str]) -> Any:
    """``shuangkou serve`` parses the command; a node's options pass the start-up checks."""
    assert command[0] == "serve", command
    args = build_parser().parse_args(command)
    assert args.run.__name__ == "run_serve"
    return args


def test_every_node_runs_serve_with_options_it_has_as_a_node_of_one_cluster() -> None:
    services = compose()["services"]
    nodes = {name: service for name, service in services.items() if service.get("build") == "."}
    assert sorted(nodes) == ["a", "b"]
    helped = subprocess.run(
        [sys.executable, "-m", "shuangkou", "serve", "--help"], capture_output=True, text=True, check=True
    ).stdout
    published: set[str] = set()
    for name, node in nodes.items():
        options = [word.split("=")[0] for word in node["command"] if word.startswith("--")]
        missing = [option for option in options if option not in helped]
        assert not missing, f"node {name}: {missing} not in `shuangkou serve --help`"
        args = serve_options(node["command"])
        cluster = _cluster_settings(args)
        assert cluster is not None and cluster.node_id == name
        # The database and Redis are the services of the file, which the node waits for.
        database, cache = urlsplit(args.database_url), urlsplit(cluster.redis_url)
        assert database.scheme == "postgresql+psycopg" and database.hostname in services
        assert cache.hostname in services and cache.port == 6379
        assert set(node["depends_on"]) == {database.hostname, cache.hostname}
        environment = services[database.hostname]["environment"]
        assert (database.username, database.password, database.path) == (
            environment["POSTGRES_USER"], environment["POSTGRES_PASSWORD"], "/" + environment["POSTGRES_DB"]
        )
        # Players reach the node at its public URL: the host port published for its --port.
        (mapping,) = node["ports"]
        host_port, container_port = mapping.split(":")
        assert int(container_port) == args.port and args.host == "0.0.0.0"
        assert urlsplit(cluster.public_url).port == int(host_port)
        assert f"127.0.0.1:{args.port}/healthz" in " ".join(node["healthcheck"]["test"])
        published.add(cluster.public_url)
        # Its data directory is a volume of its own; SIGTERM leaves time for the drain.
        (volume,) = node["volumes"]
        assert volume == f"{name}:{args.data_dir}"
        grace = int(str(node["stop_grace_period"]).removesuffix("s"))
        assert grace > args.drain_seconds
        assert node["environment"]["SHUANGKOU_OPERATOR_TOKEN"] == ENVIRONMENT["SHUANGKOU_OPERATOR_TOKEN"]
    assert len(published) == len(nodes)


def test_the_image_runs_shuangkou_and_its_default_command_is_a_server() -> None:
    instructions = dockerfile()
    assert instructions["ENTRYPOINT"] == [["shuangkou"]]
    (command,) = instructions["CMD"]
    args = serve_options(command)
    assert args.host == "0.0.0.0" and str(args.port) in instructions["EXPOSE"]
    for copied in instructions["COPY"]:
        *sources, _ = copied.split()
        assert all((ROOT / source).exists() for source in sources), copied
    (base,) = instructions["FROM"]
    image = re.fullmatch(r"python:(\d+\.\d+)-slim", base)
    required = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert image is not None and required.startswith(">=")
    assert _version(image.group(1)) >= _version(required.removeprefix(">="))


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))
