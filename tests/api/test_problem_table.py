"""The table of answers (api/problems.py) and the codes and kinds the service's errors declare (service/errors.py)
agree with the documented codes (api/problem_codes.py): each status a code is answered with is one it documents."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import pytest

import service
from api.problem_codes import CODES
from api.problems import ANSWERS, STATUS, on_error
from service.errors import ServiceError
from service.matches.access import AppIsNoSeat, SeatRequired
from service.matches.model import VersionMismatch
from service.reads.live import TooManyStreams


def service_errors() -> list[type[ServiceError]]:
    """Every ServiceError the service packages define."""
    for module in pkgutil.walk_packages(service.__path__, "service."):
        importlib.import_module(module.name)
    found, todo = [], [ServiceError]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    return found


class Headers:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


@pytest.mark.parametrize("error", service_errors(), ids=lambda e: e.__name__)
def test_each_service_error_declares_a_documented_code_and_kind(error: type[ServiceError]) -> None:
    assert error.code in CODES, error.code
    assert STATUS[error.kind] in CODES[error.code][0]


def test_each_other_answer_names_a_documented_code_and_a_status() -> None:
    for kind, answer in ANSWERS.items():
        if issubclass(kind, ServiceError):
            continue
        assert answer.kind is not None or answer.status is not None, kind
        if isinstance(answer.code, str):
            assert answer.code in CODES, answer.code
        if isinstance(answer.kind, str) and isinstance(answer.code, str):
            assert STATUS[answer.kind] in CODES[answer.code][0], kind


def answered(exc: Exception, headers: dict[str, str] | None = None) -> Any:
    return on_error(Headers(headers or {}), exc)  # type: ignore[arg-type]


def test_the_special_cases_are_data() -> None:
    assert answered(VersionMismatch(2, 3)).status_code == 409
    stale = answered(VersionMismatch(2, 3), {"if-match": '"2"'})
    assert stale.status_code == 412 and b'"current_version":3' in stale.content
    assert answered(SeatRequired(None)).status_code == 401
    assert answered(AppIsNoSeat("tram-app")).status_code == 403
    assert answered(TooManyStreams(3)).headers["Retry-After"] == "5"
    assert answered(RuntimeError("secret internals")).content.count(b"secret") == 0
