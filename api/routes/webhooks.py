"""Webhooks: an app subscribes a URL to notifications of its own matches, and watches how deliveries go."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, delete, get, post
from litestar.datastructures import ResponseHeader
from litestar.params import JSONBody, Parameter

from api.auth import require_app
from api.deps import Hooks, Service
from api.problem_codes import problem_responses
from api.routes.matches import APP_KEY
from api.webhook_schemas import (
    CreatedWebhook,
    CreateWebhookRequest,
    Delivery,
    DeliveryList,
    Webhook,
    WebhookList,
    created,
    delivery,
    webhook,
)

WebhookId = Annotated[str, Parameter(description="The webhook's id", max_length=64)]
DeliveryId = Annotated[str, Parameter(description="The delivery's id (its `Turnstile-Delivery` header)",
                                      max_length=64)]
APP = ("bad-authorization", "app-key-required", "unknown-app-key")


class WebhooksController(Controller):
    """An app's webhook subscriptions and their deliveries."""

    path = "/v1/webhooks"
    tags = ["webhooks"]
    security = APP_KEY

    @post("/", summary="Subscribe to webhooks", operation_id="createWebhook", status_code=201, sync_to_thread=True,
          request_max_body_size=8 * 1024, responses=problem_responses(
              *APP, "bad-webhook-url", "unknown-game", "unknown-match", "too-many-webhooks", "request-too-large",
              "unsupported-media-type"),
          response_headers=[ResponseHeader(name="Location", description="The new webhook", documentation_only=True)])
    def create_webhook(self, request: Request[Any, Any, Any], data: JSONBody[CreateWebhookRequest], service: Service,
                       hooks: Hooks) -> Response[CreatedWebhook]:
        """POST a signed JSON payload to `url` whenever one of the calling app's matches (of `game`, or only
        `match_id`, if given) does one of `kinds`, from now on. The `secret` that signs them is shown only here."""
        app = require_app(request, service.app_name)
        record = hooks.create(app, data.url, list(data.kinds), game=data.game, match_id=data.match_id)
        return Response(created(record), status_code=201, headers={"Location": f"/v1/webhooks/{record.id}"})

    @get("/", summary="List webhooks", operation_id="listWebhooks", sync_to_thread=True,
         responses=problem_responses(*APP))
    def list_webhooks(self, request: Request[Any, Any, Any], service: Service, hooks: Hooks) -> WebhookList:
        """The calling app's webhooks, oldest first (never their secrets)."""
        return WebhookList(items=[webhook(r) for r in hooks.of(require_app(request, service.app_name))])

    @get("/{webhook_id:str}", summary="Read a webhook", operation_id="getWebhook", sync_to_thread=True,
         responses=problem_responses(*APP, "unknown-webhook"))
    def get_webhook(self, request: Request[Any, Any, Any], webhook_id: WebhookId, service: Service,
                    hooks: Hooks) -> Webhook:
        """One of the calling app's webhooks: whether it is active, and if disabled, why."""
        return webhook(hooks.get(require_app(request, service.app_name), webhook_id))

    @delete("/{webhook_id:str}", summary="Delete a webhook", operation_id="deleteWebhook", sync_to_thread=True,
            responses=problem_responses(*APP, "unknown-webhook"))
    def delete_webhook(self, request: Request[Any, Any, Any], webhook_id: WebhookId, service: Service,
                       hooks: Hooks) -> None:
        """Unsubscribe: nothing more is sent, and its deliveries are forgotten."""
        hooks.delete(require_app(request, service.app_name), webhook_id)

    @get("/{webhook_id:str}/deliveries", summary="A webhook's deliveries", operation_id="listDeliveries",
         sync_to_thread=True, responses=problem_responses(*APP, "unknown-webhook"))
    def deliveries(self, request: Request[Any, Any, Any], webhook_id: WebhookId, service: Service, hooks: Hooks,
                   limit: Annotated[int, Parameter(ge=1, le=100)] = 20) -> DeliveryList:
        """The latest deliveries, newest first: status, attempts, the last attempt's HTTP status, latency and error,
        when the next attempt is due, and the payload."""
        found = hooks.deliveries(require_app(request, service.app_name), webhook_id, limit)
        return DeliveryList(items=[delivery(r) for r in found])

    @post("/{webhook_id:str}/deliveries/{delivery_id:str}/redeliver", summary="Send a delivery again",
          operation_id="redeliver", status_code=202, sync_to_thread=True,
          responses=problem_responses(*APP, "unknown-webhook"))
    def redeliver(self, request: Request[Any, Any, Any], webhook_id: WebhookId, delivery_id: DeliveryId,
                  service: Service, hooks: Hooks) -> Delivery:
        """Send it again soon, with the same id and body (a fresh signature); a disabled webhook is enabled again."""
        return delivery(hooks.redeliver(require_app(request, service.app_name), webhook_id, delivery_id))
