"""Rule variants that change what is legal or which combination beats which (RULES §0–6, R11.2,
RULES-CLASSIC C3.1)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

__all__ = ["DEFAULT_RULES", "FourJokerBomb", "Rules", "RulesError", "WildJokers"]

FourJokerBomb = Literal["smallest", "largest"]
WildJokers = Literal["none", "big", "all"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "four_joker_bomb": ("smallest", "largest"),
    "wild_jokers": ("none", "big", "all"),
}
_SWITCHES = ("serial_bomb_two", "hosting_bombs", "three_joker_bomb")


class RulesError(ValueError):
    """An unknown rule name or a value of the wrong type."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule variants of the rules engine, each with its documented default.

    - ``four_joker_bomb``: the four-joker bomb is the ``"smallest"`` (default) or the
      ``"largest"`` bomb of phase 7 (R6.3).
    - ``serial_bomb_two``: when True, 2 follows A in serial bombs (R4.6); default False.
    - ``hosting_bombs``: whether the hosting choice may play a bomb when no ordinary
      combination beats the table (R11.2); default True.
    - ``wild_jokers``: which jokers may stand for other ranks (C3.1): ``"all"`` (default,
      R5.2-R5.5), ``"big"`` (big jokers only; small jokers at face value) or ``"none"``
      (every joker at face value, R5.1).
    - ``three_joker_bomb``: whether three jokers are a bomb (R4.2, C3.1); default True.
    """

    four_joker_bomb: FourJokerBomb = "smallest"
    serial_bomb_two: bool = False
    hosting_bombs: bool = True
    wild_jokers: WildJokers = "all"
    three_joker_bomb: bool = True

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                quoted = [repr(choice) for choice in choices]
                allowed = f"{', '.join(quoted[:-1])} or {quoted[-1]}"
                raise RulesError(f"{name} must be {allowed}, not {getattr(self, name)!r}")
        for name in _SWITCHES:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, not {getattr(self, name)!r}")

    def with_settings(self, settings: dict[str, object]) -> Rules:
        """A copy with the named settings changed; unknown names raise :class:`RulesError`."""
        known = {field.name for field in fields(self)}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise RulesError(f"unknown rule {unknown[0]!r}; known rules: {', '.join(sorted(known))}")
        return replace(self, **settings)  # type: ignore[arg-type]

    @classmethod
    def from_strings(cls, assignments: list[str]) -> Rules:
        """Rules from ``key=value`` strings, as given on the command line."""
        settings: dict[str, object] = {}
        for assignment in assignments:
            key, separator, value = assignment.partition("=")
            if not separator:
                raise RulesError(f"expected key=value, got {assignment!r}")
            lowered = value.strip().lower()
            settings[key.strip()] = {"true": True, "false": False}.get(lowered, value.strip())
        return DEFAULT_RULES.with_settings(settings)


DEFAULT_RULES = Rules()
