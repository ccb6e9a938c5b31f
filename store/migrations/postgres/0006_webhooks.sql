-- Webhooks: an app's subscriptions, and the deliveries folded from the global log for each. A subscription's
-- `log_cursor` is the position of the log (read_all order) folded so far; it moves in the same transaction as the
-- deliveries it yields, so a crash folds the same stretch again into the same deliveries (ids are derived from
-- subscription, position, kind and seat). `lease_until` is held by the one sender attempting a delivery of the
-- subscription (one at a time); a sender that dies frees it when it runs out.
CREATE TABLE webhooks (
    id              text PRIMARY KEY,
    app             text NOT NULL,
    url             text NOT NULL,
    kinds           jsonb NOT NULL,
    game            text,
    match_id        text,
    secret          text NOT NULL,
    status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
    disabled_reason text,
    failures        integer NOT NULL DEFAULT 0,
    log_cursor      bigint NOT NULL,
    lease_until     timestamptz,
    lease_holder    text,
    created_at      timestamptz NOT NULL
);
CREATE INDEX webhooks_app_idx ON webhooks (app, created_at, id);

-- One row per notification a subscription gets: the body sent (the same bytes at every attempt), and how it went.
CREATE TABLE webhook_deliveries (
    id               text PRIMARY KEY,
    webhook_id       text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    position         bigint NOT NULL,
    ordinal          integer NOT NULL,
    kind             text NOT NULL,
    match_id         text NOT NULL,
    body             text NOT NULL,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,
    due_since        timestamptz NOT NULL,
    next_attempt_at  timestamptz NOT NULL,
    last_attempt_at  timestamptz,
    last_status_code integer,
    last_latency_ms  integer,
    last_error       text,
    created_at       timestamptz NOT NULL,
    delivered_at     timestamptz
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (webhook_id, match_id, position, ordinal);
CREATE INDEX webhook_deliveries_recent_idx ON webhook_deliveries (webhook_id, position DESC, ordinal DESC);
