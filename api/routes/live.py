"""Live matches: a resumable event stream per match, a feed of an app's matches, both Server-Sent Events.

Streams never trust a signal for content: they read the log after the last id they sent, on every signal and at
least every few seconds, so a lost signal delays and never loses. A slow reader only slows its own stream (each
event is read and sent when the previous one has gone out: no buffer grows). Callers hold a bounded number of
streams each; when the server stops, streams end and clients reconnect (elsewhere) with `Last-Event-ID`.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from functools import partial
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, get
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter, Parameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.utils.sync import sync_to_thread

from api import convert
from api.auth import bearer, require_app, seat_of
from api.deps import Live, Service, Tail
from api.problem_codes import problem_responses
from api.routes.matches import OPTIONAL_KEY, READ_MATCH, MatchId, TextInclude
from api.schemas import RecordedEvent
from domain import bots
from ledger.chain import SCHEME_FULL
from ledger.events import StoredEvent
from service.matches.matches import MatchService
from service.matches.tokens import secret_hash
from service.outbox.notifications import Follower, Notification
from service.reads.live import Tails

EVENT_STREAM = "text/event-stream"
HEARTBEAT_S = 15.0  # a comment line this often keeps proxies from closing an idle stream
REREAD_S = 5.0  # and the log is read this often even with no signal: a lost signal costs at most this
PAGE = 200
LastEventId = Annotated[str, HeaderParameter(name="Last-Event-ID", required=False, pattern=r"^[0-9]{0,18}$",
                                             description="Resume after this id (what the last event received said)")]
After = Annotated[int, Parameter(ge=0, le=2**53 - 1, description="Start after this id (0, the default: from the "
                                                                   "start); Last-Event-ID wins when both are given")]


def caller_key(request: Request[Any, Any, Any], app: str | None = None) -> str:
    """Whom open streams are counted against: the app, the token, or the client's address."""
    if app is not None:
        return f"app:{app}"
    secret = bearer(request)
    if secret is not None:
        return f"token:{secret_hash(secret)[:16]}"
    return f"address:{request.client.host if request.client else 'unknown'}"


def start_id(last_event_id: str, after: int) -> int:
    """Where a stream starts: after Last-Event-ID, else after `after` (0: from the beginning)."""
    return int(last_event_id) if last_event_id else after


async def heartbeats(hub: Any, match_id: str | None, since: float) -> AsyncIterator[ServerSentEventMessage]:
    """Wait for a signal or the re-read time; a comment if nothing was sent for HEARTBEAT_S."""
    await hub.wait(match_id, REREAD_S)
    if time.monotonic() - since >= HEARTBEAT_S:
        yield ServerSentEventMessage(comment="heartbeat", data=None)


class LiveController(Controller):
    """Pushed, resumable views of the log."""

    path = "/v1"
    tags = ["live"]

    @get("/matches/{match_id:str}/stream", summary="Follow a match (Server-Sent Events)", operation_id="streamMatch",
         security=OPTIONAL_KEY, media_type=EVENT_STREAM,
         responses={200: ResponseSpec(data_container=RecordedEvent, media_type=EVENT_STREAM, generate_examples=False,
                                      description="An event stream: each event's `data` is a RecordedEvent (as in the "
                                                  "event log), `id` its version, `event` its type; `: heartbeat` "
                                                  "comments every 15 s"),
                    **problem_responses(*READ_MATCH, "too-many-streams")})
    async def stream(self, request: Request[Any, Any, Any], match_id: MatchId, service: Service, live: Live,
                     tails: Tail, after: After = 0, last_event_id: LastEventId = "",
                     include: TextInclude = "") -> ServerSentEvent:
        """Every event of the match after `Last-Event-ID` (or `after`), exactly as `GET .../events` shows it to the
        caller (seat token: that seat; none, or the owning app's key: a spectator), then each new one as it commits,
        in version order, with no gap and no duplicate. When the match ends the ending is sent (unredacted, as the
        log shows it then) and the stream closes. Reconnect with `Last-Event-ID` to miss nothing. With `include=text`
        each event carries its `text`, as in the event log."""
        loaded = await sync_to_thread(service.load, match_id)
        seat = await sync_to_thread(seat_of, request, loaded.record, service.app_name)
        release = live.open(caller_key(request))
        return ServerSentEvent(match_events(service, live, tails, match_id, seat, start_id(last_event_id, after),
                                            release, text=bool(include)))

    @get("/feed", summary="Follow an app's matches (Server-Sent Events)", operation_id="followFeed",
         security=[{"bearer": []}], media_type=EVENT_STREAM,
         responses={200: ResponseSpec(data_container=Notification, media_type=EVENT_STREAM, generate_examples=False,
                                      description="An event stream: each event's `data` is a Notification, `event` "
                                                  "its kind, and the last one of each append has `id`: its global "
                                                  "position (resume after it)"),
                    **problem_responses("bad-authorization", "app-key-required", "unknown-app-key",
                                        "too-many-streams")})
    async def feed(self, request: Request[Any, Any, Any], service: Service, live: Live, after: After = 0,
                   last_event_id: LastEventId = "") -> ServerSentEvent:
        """The lifecycle of the calling app's matches, in log order: `match.created`, `moved` (with the new `version`
        and `to_move`), `turn` (a seat became to move), `match.timed-out` (a seat missed its deadline) and `match.ended`
        (with the outcome); never a hidden card. A match one of the app's tournaments opened is also told as
        `tournament.match-ready`, with each seat's token (`tournament`), to this app alone, to hand to its players.
        Resume by global position with `Last-Event-ID` (or `after`): one connection drives "your turn"."""
        app = await sync_to_thread(require_app, request, service.app_name)
        release = live.open(caller_key(request, app))
        return ServerSentEvent(app_notifications(service, live, app, start_id(last_event_id, after), release))


async def match_events(service: MatchService, live: Any, tails: Tails, match_id: str, seat: int | None, sent: int,
                       release: Callable[[], None], text: bool = False) -> AsyncIterator[ServerSentEventMessage]:
    """The match's events after version `sent`, then new ones as they come, until it ends or the server stops
    (`text`: each told in words)."""
    last_sent = time.monotonic()
    try:
        while not live.closing:
            loaded, stored = await tails.after(match_id, sent, PAGE)
            old_scheme = loaded.record.scheme == SCHEME_FULL  # only scheme 1 records withhold hashes (a read)
            withheld = await sync_to_thread(service.first_redacted, loaded, seat) if old_scheme else None
            finished = loaded.state.finished
            # A bot by its level's title, as the event log's `text` names it (not by its handle, `bot:ismcts-3`).
            names = bots.shown_names(loaded.game, loaded.state.players) if text else None
            for event in stored:
                make = partial(message, loaded.game, event, seat, finished, withheld, names)
                # Scheme 2: an event looks the same to every stream of one caller kind: encoded once per process.
                key = (match_id, event.version, seat, finished, text)
                data, kind = make() if old_scheme else tails.remember(key, make)
                yield ServerSentEventMessage(data=data, id=event.version, event=kind)
                sent, last_sent = event.version, time.monotonic()
            if loaded.state.finished and sent >= loaded.record.version:
                return
            if len(stored) < PAGE:
                async for beat in heartbeats(live, match_id, last_sent):
                    yield beat
                    last_sent = time.monotonic()
    finally:
        release()


def message(game: Any, event: StoredEvent, seat: int | None, finished: bool, withheld: int | None,
            names: Sequence[str] | None = None) -> tuple[str, str]:
    """An event as `seat` sees it (with `names`: told in words), as the data of an SSE message, and its type."""
    (item,) = convert.recorded(game, [event], seat, finished, withheld, names)
    return msgspec.json.encode(item).decode(), item.event.__struct_config__.tag


async def app_notifications(service: MatchService, live: Any, app: str, after: int,
                            release: Callable[[], None]) -> AsyncIterator[ServerSentEventMessage]:
    """An app's notifications after global position `after`, then new ones as they come, until the server stops."""
    follower = Follower(service.store)
    last_sent = time.monotonic()
    try:
        while not live.closing:
            notes, cursor = await sync_to_thread(follower.read, after, owner=app, limit=PAGE)
            for index, note in enumerate(notes):
                # One append can tell several things (moved, then whose turn it is), all at one position: only the
                # last carries the id, so a client cut off inside an append resumes before it and misses none.
                closes_append = index + 1 == len(notes) or notes[index + 1].position != note.position
                yield ServerSentEventMessage(data=msgspec.json.encode(note).decode(), event=note.kind,
                                             id=note.position if closes_append else None)
                last_sent = time.monotonic()
            after = cursor
            if not notes:
                async for beat in heartbeats(live, None, last_sent):
                    yield beat
                    last_sent = time.monotonic()
    finally:
        release()
