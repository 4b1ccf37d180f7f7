"""Checks of the arguments the store is given: each returns the value or raises an :class:`InvalidValueError`."""

from __future__ import annotations

import orjson

from ..editions import EDITIONS
from .errors import InvalidTypeError, InvalidValueError

__all__ = ["check_choice", "check_edition", "check_int", "check_json", "check_page", "check_text"]


def check_int(value: object, what: str) -> int:
    """``value`` if it is an int (not a bool), else :class:`InvalidTypeError`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidTypeError(f"{what} must be an int, not {type(value).__name__}")
    return value


def check_choice(value: object, what: str, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``, else :class:`InvalidValueError` naming them.

    >>> check_choice("gold", "edition", ("points", "wealth"))
    Traceback (most recent call last):
    ...
    shuangkou.store.errors.InvalidValueError: unknown edition 'gold'; expected one of points, wealth
    """
    if not isinstance(value, str) or value not in choices:
        raise InvalidValueError(f"unknown {what} {value!r}; expected one of {', '.join(choices)}")
    return value


def check_edition(edition: object) -> str:
    """``edition`` if it is one of :data:`~shuangkou.editions.EDITIONS`, else :class:`InvalidValueError`."""
    return check_choice(edition, "edition", EDITIONS)


def check_text(value: object, what: str, max_length: int) -> str:
    """``value`` if it is a string holding more than spaces and at most ``max_length`` characters."""
    if not isinstance(value, str):
        raise InvalidTypeError(f"{what} must be a string, not {type(value).__name__}")
    if not value.strip():
        raise InvalidValueError(f"{what} must be a non-empty string")
    if len(value) > max_length:
        raise InvalidValueError(f"{what} is longer than {max_length} characters")
    return value


def check_json(value: object, what: str) -> str:
    """``value`` if it is a string of valid JSON (RFC 8259: no ``NaN`` or ``Infinity``)."""
    if not isinstance(value, str):
        raise InvalidTypeError(f"{what} must be a JSON string, not {type(value).__name__}")
    try:
        orjson.loads(value)  # the store checks every record and action it keeps
    except ValueError as error:
        raise InvalidValueError(f"{what} is not valid JSON: {error}") from None
    return value


def check_page(limit: object, offset: object) -> None:
    """Refuse a page of a listing with a limit or offset that is not a non-negative int."""
    if check_int(limit, "limit") < 0 or check_int(offset, "offset") < 0:
        raise InvalidValueError("limit and offset must not be negative")
