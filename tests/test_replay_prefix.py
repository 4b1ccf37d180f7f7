"""`shuangkou replay` takes a game's whole id or a prefix of exactly one id (the result
screen shows a short one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shuangkou.cli import main
from shuangkou.games.shuangkou.config import load_config
from shuangkou.store import Store

CONFIG = load_config("points").to_json()


def test_a_unique_prefix_names_the_game_and_an_ambiguous_one_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with Store(url) as store:
        for game_id in ("aa11f0", "aa22f0", "b_%1"):
            store.save_game(game_id, "points", CONFIG)
        assert store.game_ids_starting("aa") == ["aa11f0", "aa22f0"]
        assert store.game_ids_starting("b_") == ["b_%1"] and store.game_ids_starting("b%") == []

    def replay(text: str) -> tuple[int, dict[str, object]]:
        capsys.readouterr()
        status = main(["replay", text, "--database-url", url])
        return status, json.loads(capsys.readouterr().out)

    status, report = replay("aa2")
    assert report["game"] == "aa22f0" and status in (0, 1)
    status, report = replay("aa22f0")
    assert report["game"] == "aa22f0"
    status, report = replay("aa")
    assert status == 2 and "several games (aa11f0, aa22f0)" in str(report["error"])
    status, report = replay("zz")
    assert status == 2 and "no game 'zz'" in str(report["error"])
