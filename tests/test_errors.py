"""The one family of refusals (shuangkou.errors): a closed set of codes, each documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shuangkou.errors import ERROR_CODES, Refusal
from shuangkou.games.shuangkou.game import GameError
from shuangkou.referee import ScenarioError
from shuangkou.server.client import ClientError
from shuangkou.server.lobby import LobbyError
from shuangkou.server.protocol import ProtocolError, parse_client_message

DOCS = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def test_every_error_code_is_documented_in_the_protocol_page() -> None:
    documented = set(re.findall(r"^\|[^|]*\|", DOCS.read_text(encoding="utf-8"), re.MULTILINE))
    codes = {code for cell in documented for code in re.findall(r"`([a-z_]+)`", cell)}
    missing = sorted(ERROR_CODES - codes)
    assert not missing, f"error codes not in a table of docs/protocol.md: {missing}"


@pytest.mark.parametrize("family", [GameError, LobbyError, ProtocolError, ScenarioError, ClientError])
def test_every_refusal_is_one_family(family: type[Refusal]) -> None:
    problem = family("bad_message", "why")
    assert isinstance(problem, Refusal)
    assert problem.to_dict() == {"type": "error", "code": "bad_message", "message": "why"}


def test_a_code_outside_the_set_is_refused_at_once() -> None:
    with pytest.raises(ValueError, match="not an error code"):
        Refusal("no_such_code", "why")  # type: ignore[arg-type]


def test_the_protocol_refuses_with_a_code_of_the_set() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message("{")
    assert caught.value.code == "bad_json" and caught.value.code in ERROR_CODES


def test_the_client_reads_a_code_it_does_not_know_as_bad_message() -> None:
    known = ClientError.of({"type": "error", "code": "stale", "message": "late"})
    unknown = ClientError.of({"type": "error", "code": "from_the_future", "message": "?"})
    assert (known.code, known.message) == ("stale", "late")
    assert (unknown.code, unknown.message) == ("bad_message", "from_the_future: ?")
