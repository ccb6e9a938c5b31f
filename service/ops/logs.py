"""Structured logs: one JSON object per line for machines, a short readable line when a person watches a terminal.

Request and job lines carry their fields as `extra={"fields": {...}}`; the formatters write those fields and never
anything else of the request (no headers, so no token or key can reach a log).
"""

from __future__ import annotations

import logging
import re
import secrets
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

import msgspec

# Records without what no formatter of ours writes: the caller's file and line (a walk up the stack on every call),
# the thread's and the process's names (the logging HOWTO's "Optimization"). Every process that formats with this
# module imports it, uvicorn's workers included; a request line cost ≈ 40 % less with these off.
logging._srcfile = None  # type: ignore[attr-defined]
logging.logThreads = False
logging.logProcesses = False
logging.logMultiprocessing = False

# What a caller's X-Request-ID may be: short, and safe to echo into headers and logs.
REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


# A log line's JSON (one per request): msgspec, a tenth of json.dumps's cost here; what it cannot encode, as text.
LINE = msgspec.json.Encoder(enc_hook=str)


def request_id(given: str | None) -> str:
    """The caller's request id when it is short and safe, else a fresh one."""
    if given and REQUEST_ID.match(given):
        return given
    return secrets.token_hex(8)


def fields_of(record: logging.LogRecord) -> dict[str, Any]:
    """The structured fields a log call carried (`extra={"fields": ...}`)."""
    fields = getattr(record, "fields", None)
    return dict(fields) if isinstance(fields, dict) else {}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the call's fields, and a traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a line of JSON."""
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage(),
            **fields_of(record)}
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return LINE.encode(line).decode()


class HumanFormatter(logging.Formatter):
    """For a terminal: time, level, message, then the fields as key=value."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a readable line."""
        stamp = datetime.fromtimestamp(record.created).strftime("%H:%M:%S")
        extra = " ".join(f"{key}={value}" for key, value in fields_of(record).items() if value is not None)
        text = f"{stamp} {record.levelname:<7} {record.getMessage()}" + (f"  {extra}" if extra else "")
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


def formatter_for(stream: TextIO) -> logging.Formatter:
    """JSON lines, unless a person reads `stream` on a terminal."""
    return HumanFormatter() if stream.isatty() else JsonFormatter()


def configure(stream: TextIO | None = None, level: int = logging.INFO) -> None:
    """Send every log record to `stream` (stderr), formatted for whoever reads it."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter_for(stream))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


def uvicorn_log_config(json_lines: bool, access_log: bool = False) -> dict[str, Any]:
    """uvicorn's logging configuration, so its lines and ours share one format in every worker process; its access
    log only when asked for (our request lines replace it)."""
    formatter = "service.ops.logs.JsonFormatter" if json_lines else "service.ops.logs.HumanFormatter"
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"default": {"()": formatter}},
        "handlers": {"default": {"class": "logging.StreamHandler", "formatter": "default",
                                 "stream": "ext://sys.stderr"}},
        "root": {"handlers": ["default"], "level": "INFO"},
        "loggers": {"uvicorn": {"handlers": [], "propagate": True},
                    "uvicorn.access": {"handlers": [], "propagate": access_log}},
    }
