"""The composition root: one store, one match service, the routes and the OpenAPI document."""

from __future__ import annotations

from litestar import Litestar, get
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme

from api.allow import allow_all_route_methods
from api.body import JsonRequest
from api.edge import refuse_nul
from api.openapi_schema import ClosedStructSchemaPlugin, add_discriminators, forbid_nul
from api.problems import EXCEPTION_HANDLERS
from api.routes.audit import AuditController
from api.routes.games import GamesController
from api.routes.matches import MatchesController
from api.routes.stats import StatsController
from service.matches import MatchService, StateCache
from store.read_models import Store
from workers.notify import Notifier

VERSION = "0.1.0"


@get("/health", summary="Liveness", tags=["service"], sync_to_thread=False)
def health() -> dict[str, str]:
    """The service answers."""
    return {"status": "ok"}


def create_app(store: Store, *, notifier: Notifier | None = None, debug: bool = False,
               cache: StateCache | None = None) -> Litestar:
    """The Litestar app serving `store`; `notifier` hears of every append (projections); `cache` keeps folded
    matches (512 by default)."""
    service = MatchService(store, cache=cache, notifier=notifier)
    app = Litestar(
        route_handlers=[health, GamesController, MatchesController, StatsController, AuditController],
        dependencies={"service": Provide(lambda: service, sync_to_thread=False)},
        exception_handlers=EXCEPTION_HANDLERS,
        middleware=[refuse_nul, allow_all_route_methods],
        request_class=JsonRequest,
        plugins=[ClosedStructSchemaPlugin()],
        openapi_config=OpenAPIConfig(
            title="Turnstile",
            version=VERSION,
            description="Referee and record of transit-themed tabletop games: moves, replays and leaderboards.",
            render_plugins=[ScalarRenderPlugin()],
            components=Components(security_schemes={
                "bearer": SecurityScheme(type="http", scheme="bearer",
                                         description="An app key (create matches) or a seat token (moves)"),
            }),
        ),
        debug=debug,
    )
    app.state.service = service
    app.state.store = store
    forbid_nul(add_discriminators(app.openapi_schema))  # built once here; what /schema serves
    return app
