"""Structured logs: one JSON object per line on standard error."""

from __future__ import annotations

import json
import logging
import sys
from typing import ClassVar

__all__ = ["JsonFormatter", "configure_logging"]


class JsonFormatter(logging.Formatter):
    """One JSON object per log line, with the ids passed in ``extra``."""

    _standard: ClassVar[set[str]] = set(vars(logging.makeLogRecord({})))

    def format(self, record: logging.LogRecord) -> str:
        data = {"time": self.formatTime(record), "level": record.levelname, "logger": record.name,
                "message": record.getMessage()}
        data.update({k: v for k, v in vars(record).items() if k not in self._standard and k != "message"})
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str, ensure_ascii=False)


def configure_logging(level: int = logging.INFO) -> None:
    """Structured logs on standard error."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("shuangkou")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
