"""The app: the routes and the OpenAPI document on one store and its services (a served process opens them with its
runtime, service/runtime.py, the composition root)."""

from __future__ import annotations

from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path

from litestar import Litestar
from litestar._openapi.plugin import OpenAPIPlugin
from litestar.config.cors import CORSConfig
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, OpenAPI, SecurityScheme
from litestar.static_files import create_static_files_router

from api.allow import allow_all_route_methods
from api.body import JsonRequest
from api.credentials import Credentials
from api.edge import refuse_nul
from api.listener import live
from api.observe import observe
from api.openapi_games import type_options, type_views
from api.openapi_links import add_links
from api.openapi_names import describe_event_streams, name_components, offer_plain_text, type_headers
from api.openapi_schema import ClosedStructSchemaPlugin, add_discriminators, forbid_nul
from api.openapi_webhooks import add_webhooks
from api.private import keep_private
from api.problems import EXCEPTION_HANDLERS
from api.ratelimit import RateLimiter
from api.routes.audit import AuditController
from api.routes.dumps import DumpFolder, DumpsController
from api.routes.exports import ExportsController
from api.routes.games import GamesController
from api.routes.insights import InsightsController
from api.routes.live import LiveController
from api.routes.log import LogController
from api.routes.matches import MatchesController
from api.routes.ops import Operations, OperationsController
from api.routes.problem_docs import ProblemDocsController
from api.routes.seating import SeatingController
from api.routes.stats import StatsController
from api.routes.tiles import TilesController
from api.routes.tournaments import MatchTournamentController, TournamentsController
from api.routes.webhooks import WebhooksController
from api.web.routes import WEB_ASSETS, WebController, favicon, home
from ledger.notes import Signer
from ledger.records import MEDIA_TYPE as RECORD_MEDIA_TYPE
from service.log.transparency import DEFAULT_ORIGIN, Transparency
from service.matches import snapshots
from service.matches.bot_runner import BotRunner
from service.matches.loading import StateCache
from service.matches.matches import MatchService
from service.outbox.webhooks import Webhooks
from service.reads.audit import Audit
from service.reads.exports import Exports
from service.reads.live import Hub, Tails
from service.reads.notify import Notifier
from service.reads.statistics import Statistics
from service.tournaments.tournaments import TournamentService
from store.read_models import Store
from store.replica import ReplicaReads

VERSION = "0.1.0"


DOCS_ASSETS = "/schema/assets"


def _docs_files() -> Path:
    """Swagger UI's bundled files, found without importing its package (that import is ≈ 0.2 s of every start)."""
    spec = find_spec("swagger_ui")
    if spec is None or spec.origin is None:
        raise RuntimeError("swagger-ui-py is missing: it is a dependency (uv sync)")
    return Path(spec.origin).parent / "static"


DOCS_FILES = _docs_files()
# The docs page's scripts and styles ship with the project (swagger-ui-py bundles Swagger UI 5, which reads OpenAPI
# 3.1): the page works with no internet, and a visitor's browser fetches nothing from a CDN.
DOCS_PAGE = SwaggerRenderPlugin(
    path="/", js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js", css_url=f"{DOCS_ASSETS}/swagger-ui.css",
    standalone_preset_js_url=f"{DOCS_ASSETS}/swagger-ui-standalone-preset.js", favicon="")


def cors(origins: str) -> CORSConfig | None:
    """CORS for the comma-separated origins (TURNSTILE_CORS_ORIGINS), or none: browsers on other origins are kept
    out until the operator names them."""
    allowed = [origin.strip() for origin in origins.split(",") if origin.strip()]
    if not allowed:
        return None
    return CORSConfig(allow_origins=allowed, allow_methods=["GET", "POST", "OPTIONS"],
                      allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "If-Match", "Last-Event-ID"],
                      expose_headers=["ETag", "Location", "Content-Disposition"])


def create_app(store: Store, *, notifier: Notifier | None = None, debug: bool = False, cors_origins: str = "",
               streams_per_caller: int = 20, cache: StateCache | None = None, limiter: RateLimiter | None = None,
               operations: Operations | None = None, webhooks: Webhooks | None = None,
               replica: ReplicaReads | None = None, replica_wait_s: float = 0.5,
               log: Transparency | None = None, tournament_budget_s: float = 2.0, tournament_matches_max: int = 512,
               tournaments_running_per_app: int = 10, service: MatchService | None = None,
               tournaments: TournamentService | None = None, dumps_dir: str | None = None) -> Litestar:
    """The Litestar app serving `store`; `notifier` hears of every append (projections); `cache` keeps folded
    matches (512 by default); `limiter` keeps callers to their rate (default limits, in memory); `operations` is
    what readiness and metrics look at (the store alone by default); `webhooks` manages subscriptions (by default:
    public receivers only, 20 an app); `replica` serves the read-only endpoints, waiting `replica_wait_s` for a
    `min_position` before it reads the primary; `log` is the transparency log (by default one signed with a key made
    for this app alone, and sequenced by nobody: a runtime runs a `Sequencer`); a request that moves a
    tournament on plays its bots' matches for at most `tournament_budget_s`, the background driver the rest; a
    tournament may plan `tournament_matches_max` matches, an app have `tournaments_running_per_app` running.
    A process passes the `service` and `tournaments` its runtime (service/runtime.py) opened, with their `log`:
    then `cache`, `notifier` and `tournament_budget_s` are theirs, not these. `dumps_dir`: where the monthly dumps
    are (`turnstile dump`; none: GET /v1/dumps lists none)."""
    log = log or Transparency(store, Signer.generate(DEFAULT_ORIGIN))
    shutdown: list[Callable[[], object]] = []
    if service is None:  # this app's own service: its own thread plays the search bots (a runtime's has one already)
        service = MatchService(store, cache=cache, notifier=notifier, reads=replica,
                               snapshot_key=snapshots.key_from(log.signer))
        runner = BotRunner(service)
        service.watchers.append(runner.moved)
        shutdown.append(runner.close)
    tournaments = tournaments or TournamentService(store, service, budget_s=tournament_budget_s,
                                                   matches_max=tournament_matches_max,
                                                   running_per_app=tournaments_running_per_app)
    stats = Statistics(store) if replica is None else Statistics(
        replica, wait_seconds=replica_wait_s, primary=Statistics(store))
    auditor = Audit(store, log=log) if replica is None else Audit(replica, primary=Audit(store, log=log), log=log)
    exports = Exports(store, Audit(store, log=log))  # the primary's: a replica may lag a match it lists
    hub = Hub(streams_per_caller)
    tails = Tails(service, hub)
    limiter = limiter or RateLimiter()
    operations = operations or Operations(store, replica=replica, log=log)
    hooks = webhooks or Webhooks(store)
    app = Litestar(
        route_handlers=[OperationsController, ProblemDocsController, home, favicon, WebController, WEB_ASSETS,
                        GamesController, MatchesController,
                        SeatingController, StatsController, AuditController, LiveController, WebhooksController,
                        LogController, TilesController, TournamentsController, MatchTournamentController,
                        ExportsController, InsightsController, DumpsController,
                        create_static_files_router(path=DOCS_ASSETS, directories=[DOCS_FILES],
                                                   include_in_schema=False)],
        cors_config=cors(cors_origins),
        dependencies={"service": Provide(lambda: service, sync_to_thread=False),
                      "stats": Provide(lambda: stats, sync_to_thread=False),
                      "auditor": Provide(lambda: auditor, sync_to_thread=False),
                      "live": Provide(lambda: hub, sync_to_thread=False),
                      "tails": Provide(lambda: tails, sync_to_thread=False),
                      "ops": Provide(lambda: operations, sync_to_thread=False),
                      "hooks": Provide(lambda: hooks, sync_to_thread=False),
                      "log": Provide(lambda: log, sync_to_thread=False),
                      "tournaments": Provide(lambda: tournaments, sync_to_thread=False),
                      "exports": Provide(lambda: exports, sync_to_thread=False),
                      "dumps": Provide(lambda: DumpFolder(dumps_dir), sync_to_thread=False)},
        lifespan=[lambda _: live(service, hub)],
        on_shutdown=[limiter.buckets.close, *shutdown],
        exception_handlers=EXCEPTION_HANDLERS,
        middleware=[refuse_nul, limiter.middleware(Credentials(store)), allow_all_route_methods],
        request_class=JsonRequest,
        plugins=[ClosedStructSchemaPlugin()],
        openapi_config=OpenAPIConfig(
            title="Turnstile",
            version=VERSION,
            description="Referee and record of transit-themed tabletop games: moves, replays and leaderboards.",
            render_plugins=[DOCS_PAGE],
            components=Components(security_schemes={
                "bearer": SecurityScheme(type="http", scheme="bearer",
                                         description="An app key (create matches) or a seat token (moves)"),
            }),
        ),
        debug=debug,
        logging_config=None,  # the process's own configuration (service/ops/logs.py) formats every line
    )
    app.state.service = service
    app.state.tournaments = tournaments
    app.state.store = store
    app.state.hub = hub
    app.state.tails = tails
    app.state.log = log
    app.state.exports = exports
    app.state.stats = stats
    describe(app)
    return observe(keep_private(app))


# The finished document depends on the routes and the registered games alone, the same for every app of a process,
# and building it is most of an app's construction (about half a second): one per process, shared, never changed.
_DOCUMENT: list[OpenAPI] = []


def describe(app: Litestar) -> None:
    """Give the app the process's OpenAPI document (what /schema serves), built by the process's first app."""
    if _DOCUMENT:
        app.plugins.get(OpenAPIPlugin)._openapi = _DOCUMENT[0]  # what `app.openapi_schema` builds when unset
        return
    # Names first: the discriminators map tags to the final names.
    document = add_links(add_webhooks(describe_event_streams(type_headers(type_views(type_options(
        name_components(app.openapi_schema)))))))
    forbid_nul(add_discriminators(offer_plain_text(document, RECORD_MEDIA_TYPE)))
    _DOCUMENT.append(app.openapi_schema)
