"""docs/protocol.md and docs/protocol-schema.json stay in step with the server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shuangkou.cli import main
from shuangkou.server import protocol

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_schema_file_is_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["protocol-schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == protocol.schemas()
    stored = json.loads((DOCS / "protocol-schema.json").read_text(encoding="utf-8"))
    assert stored == printed, "run: shuangkou protocol-schema > docs/protocol-schema.json"


def test_every_message_type_is_documented() -> None:
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    schemas = protocol.schemas()
    client_types = [  # the messages among the definitions (the others are shared types such as Kind)
        definition["properties"]["type"]["const"]
        for definition in schemas["client"]["$defs"].values()
        if "properties" in definition
    ]
    server_types = [definition["properties"]["type"]["const"] for definition in schemas["server"].values()]
    assert len(client_types) == 19 and len(server_types) == 9
    for kind in client_types + server_types:
        assert re.search(rf'"type": "{kind}"', text), f"no example of {kind!r} in docs/protocol.md"
