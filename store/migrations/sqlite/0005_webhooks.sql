-- Webhooks: an app's subscriptions, and the deliveries folded from the global log for each. A subscription's
-- `log_cursor` is the position of the log (read_all order) folded so far; it moves in the same transaction as the
-- deliveries it yields, so a crash folds the same stretch again into the same deliveries (ids are derived from
-- subscription, position, kind and seat). `lease_until` is held by the one sender attempting a delivery of the
-- subscription (one at a time); a sender that dies frees it when it runs out.
CREATE TABLE webhooks (
    id              TEXT PRIMARY KEY,
    app             TEXT NOT NULL,
    url             TEXT NOT NULL,
    kinds           TEXT NOT NULL,
    game            TEXT,
    match_id        TEXT,
    secret          TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
    disabled_reason TEXT,
    failures        INTEGER NOT NULL DEFAULT 0,
    log_cursor      INTEGER NOT NULL,
    lease_until     TEXT,
    lease_holder    TEXT,
    created_at      TEXT NOT NULL
);
CREATE INDEX webhooks_app_idx ON webhooks (app, created_at, id);

-- One row per notification a subscription gets: the body sent (the same bytes at every attempt), and how it went.
CREATE TABLE webhook_deliveries (
    id               TEXT PRIMARY KEY,
    webhook_id       TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    position         INTEGER NOT NULL,
    ordinal          INTEGER NOT NULL,
    kind             TEXT NOT NULL,
    match_id         TEXT NOT NULL,
    body             TEXT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    due_since        TEXT NOT NULL,
    next_attempt_at  TEXT NOT NULL,
    last_attempt_at  TEXT,
    last_status_code INTEGER,
    last_latency_ms  INTEGER,
    last_error       TEXT,
    created_at       TEXT NOT NULL,
    delivered_at     TEXT
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (webhook_id, match_id, position, ordinal);
CREATE INDEX webhook_deliveries_recent_idx ON webhook_deliveries (webhook_id, position DESC, ordinal DESC);
