"""`GET /problems/{code}`: what each problem `type` URI names, served by the API itself (from `problem_codes.CODES`,
the table `turnstile problems` prints), as JSON or, to a browser, as a small HTML page."""

from __future__ import annotations

import html
import re
from typing import Any

import msgspec
from litestar import Controller, Request, Response, get
from litestar.params import FromPath

from api.problem_codes import CODES, RULES, TITLES
from api.problems import ApiError

SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
PAGE_HEADERS = {"Content-Security-Policy": "default-src 'none'", "X-Content-Type-Options": "nosniff"}


class ProblemDoc(msgspec.Struct, frozen=True):
    """One problem code: the statuses it comes with and what it means."""

    code: str
    statuses: list[int]
    titles: list[str]
    meaning: str


def doc_of(code: str) -> ProblemDoc:
    """The documentation of a code: one of the API's own, else (a slug) a game rule's refusal; 404 otherwise."""
    if code in CODES and code != RULES:
        statuses, meaning = CODES[code]
    elif SLUG.fullmatch(code):
        statuses, meaning = CODES[RULES]
        meaning = (f"not one of the API's own codes: a game's rules refused the command with this code "
                   f"({meaning}); GET /v1/games/{{game}} and the game's rules say when")
    else:
        raise ApiError(404, "not-found", f"no problem code {code[:64]!r}")
    return ProblemDoc(code=code, statuses=list(statuses), titles=[TITLES[s] for s in statuses], meaning=meaning)


def page(doc: ProblemDoc) -> str:
    """The documentation as a small HTML page."""
    return (f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(doc.code)}</title>"
            f"<h1><code>{html.escape(doc.code)}</code></h1>"
            f"<p>HTTP {', '.join(f'{s} {t}' for s, t in zip(doc.statuses, doc.titles, strict=True))}</p>"
            f"<p>{html.escape(doc.meaning)}</p>"
            f"<p>Every problem code: <a href=/problems>/problems</a>.</p></html>")


class ProblemDocsController(Controller):
    """The documentation of problem codes (each answer's `type` points here)."""

    path = "/problems"
    include_in_schema = False

    @get("/", sync_to_thread=False)
    def every(self) -> list[ProblemDoc]:
        """Every code the API answers with."""
        return [doc_of(code) if code != RULES else ProblemDoc(code=RULES, statuses=list(CODES[RULES][0]),
                                                              titles=[TITLES[s] for s in CODES[RULES][0]],
                                                              meaning=CODES[RULES][1])
                for code in CODES]

    @get("/{code:str}", sync_to_thread=False)
    def one(self, request: Request[Any, Any, Any], code: FromPath[str]) -> Response[Any]:
        """One code, as HTML to a browser (Accept: text/html), else as JSON."""
        doc = doc_of(code)
        if request.accept.best_match(["application/json", "text/html"], default="application/json") == "text/html":
            return Response(page(doc), media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)
        return Response(doc)
