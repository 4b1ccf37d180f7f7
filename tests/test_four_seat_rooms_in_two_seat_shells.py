"""The two-seat shells refuse a four-seat room (RULES-CLASSIC) with a clear message until
they seat four: the simulate command says why."""

from __future__ import annotations

import pytest

from shuangkou.cli import main


def test_simulate_refuses_a_four_seat_room(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--config", "qianbian", "--games", "1"]) != 0
    assert "simulated games seat two players; qianbian has seats = 4" in capsys.readouterr().err
