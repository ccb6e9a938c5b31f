"""The webhook half of the SQL adapters (store/webhooks.py): one SQL shape for both dialects."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import timedelta
from typing import Any

from store.base import utc_now
from store.dialect import Dialect
from store.webhooks import Attempt, Claimed, DeliveryRecord, NewDelivery, NewWebhook, WebhookRecord

HOOK_COLUMNS = "id, app, url, kinds, game, match_id, secret, status, disabled_reason, failures, log_cursor, created_at"
DELIVERY_COLUMNS = ("id, webhook_id, position, kind, match_id, status, attempts, next_attempt_at, last_attempt_at, "
                    "last_status_code, last_latency_ms, last_error, created_at, delivered_at, body")
# Due deliveries a sender may take: pending and due, and no earlier delivery of the same match still pending for the
# webhook, so every receiver gets each match's notifications in log order.
_READY = (
    "d.status = 'pending' AND d.next_attempt_at <= ? "
    "AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.webhook_id = d.webhook_id "
    "AND e.match_id = d.match_id AND e.status = 'pending' AND (e.position, e.ordinal) < (d.position, d.ordinal))"
)
# ... of an active webhook that no sender holds, most overdue first.
_DUE = (
    "SELECT d.id, d.webhook_id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id "
    f"WHERE {_READY} AND w.status = 'active' AND (w.lease_until IS NULL OR w.lease_until <= ?) "
    "ORDER BY d.next_attempt_at, d.position, d.ordinal LIMIT 8"
)


class SqlWebhooks:
    """Subscriptions and deliveries over the connections an adapter holds (mixed into `store.sql.SqlStore`)."""

    dialect: Dialect

    def _reading(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _hook(self, row: Sequence[Any]) -> WebhookRecord:
        d = self.dialect
        return WebhookRecord(id=row[0], app=row[1], url=row[2], kinds=tuple(d.decode(row[3])), game=row[4],
                             match_id=row[5], secret=row[6], status=row[7], disabled_reason=row[8], failures=row[9],
                             log_cursor=row[10], created_at=d.stamp(row[11]))

    def _delivery(self, row: Sequence[Any]) -> DeliveryRecord:
        d = self.dialect

        def stamp(value: Any) -> str | None:
            return None if value is None else d.stamp(value)

        return DeliveryRecord(id=row[0], webhook_id=row[1], position=row[2], kind=row[3], match_id=row[4],
                              status=row[5], attempts=row[6],
                              next_attempt_at=stamp(row[7]) if row[5] == "pending" else None,
                              last_attempt_at=stamp(row[8]), last_status_code=row[9], last_latency_ms=row[10],
                              last_error=row[11], created_at=d.stamp(row[12]), delivered_at=stamp(row[13]),
                              body=row[14])

    def _owned(self, conn: Any, app: str, webhook_id: str) -> WebhookRecord | None:
        row = conn.execute(self.dialect.sql(f"SELECT {HOOK_COLUMNS} FROM webhooks WHERE id = ? AND app = ?"),
                           (webhook_id, app)).fetchone()
        return None if row is None else self._hook(row)

    def create_webhook(self, webhook: NewWebhook, *, log_cursor: int, limit: int) -> WebhookRecord | None:
        """Insert a subscription folding the log after `log_cursor`; None when the app already has `limit`."""
        d = self.dialect
        with self._transaction() as conn:
            # Creations of one app take turns (on SQLite the write lock already serialises them), so two at once
            # cannot both pass the limit.
            conn.execute(d.sql("SELECT 1 FROM app_keys WHERE name = ?" + d.lock_row), (webhook.app,)).fetchall()
            (count,) = conn.execute(d.sql("SELECT count(*) FROM webhooks WHERE app = ?"), (webhook.app,)).fetchone()
            if count >= limit:
                return None
            conn.execute(d.sql(f"INSERT INTO webhooks ({HOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 'active', NULL, "
                               "0, ?, ?)"),
                         (webhook.id, webhook.app, webhook.url, d.encode(list(webhook.kinds)), webhook.game,
                          webhook.match_id, webhook.secret, log_cursor, d.now()))
            return self._owned(conn, webhook.app, webhook.id)

    def webhooks(self, app: str | None) -> list[WebhookRecord]:
        """The app's subscriptions, oldest first (None: every app's)."""
        where, params = ("", ()) if app is None else (" WHERE app = ?", (app,))
        with self._reading() as conn:
            rows = conn.execute(self.dialect.sql(f"SELECT {HOOK_COLUMNS} FROM webhooks{where} ORDER BY created_at, "
                                                 "id"), params).fetchall()
        return [self._hook(r) for r in rows]

    def webhook(self, app: str, webhook_id: str) -> WebhookRecord | None:
        """One of the app's subscriptions, or None."""
        with self._reading() as conn:
            return self._owned(conn, app, webhook_id)

    def delete_webhook(self, app: str, webhook_id: str) -> bool:
        """Delete one of the app's subscriptions and its deliveries; False if it has none of this id."""
        d = self.dialect
        with self._transaction() as conn:
            conn.execute(d.sql("DELETE FROM webhook_deliveries WHERE webhook_id IN "
                               "(SELECT id FROM webhooks WHERE id = ? AND app = ?)"), (webhook_id, app))
            return bool(conn.execute(d.sql("DELETE FROM webhooks WHERE id = ? AND app = ?"),
                                     (webhook_id, app)).rowcount)

    def commit_fold(self, webhook_id: str, deliveries: Sequence[NewDelivery], after: int, cursor: int) -> bool:
        """Move the cursor from `after` to `cursor` and insert the deliveries folded between, in one transaction;
        False (nothing written) when the cursor is no longer at `after` (another folder moved it) or it is gone."""
        d = self.dialect
        with self._transaction() as conn:
            moved = conn.execute(d.sql("UPDATE webhooks SET log_cursor = ? WHERE id = ? AND log_cursor = ?"),
                                 (cursor, webhook_id, after)).rowcount
            if not moved:
                return False
            now = d.now()
            if deliveries:  # ids a refold derives again are already there: left alone
                conn.cursor().executemany(d.sql(
                    "INSERT INTO webhook_deliveries (id, webhook_id, position, ordinal, kind, match_id, body, "
                    "due_since, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (id) DO NOTHING"),
                    [(x.id, x.webhook_id, x.position, x.ordinal, x.kind, x.match_id, x.body, now, now, now)
                     for x in deliveries])
        return True

    def claim_delivery(self, holder: str, lease_s: float) -> Claimed | None:
        """The most overdue delivery a sender may take now, its subscription then held by `holder` for `lease_s`."""
        d = self.dialect
        now = utc_now()
        with self._transaction() as conn:
            for delivery_id, webhook_id in conn.execute(d.sql(_DUE), (d.time(now), d.time(now))).fetchall():
                taken = conn.execute(d.sql(
                    "UPDATE webhooks SET lease_until = ?, lease_holder = ? WHERE id = ? AND status = 'active' "
                    "AND (lease_until IS NULL OR lease_until <= ?)"),
                    (d.time(now + timedelta(seconds=lease_s)), holder, webhook_id, d.time(now))).rowcount
                if not taken:  # another sender holds this webhook
                    continue
                # Read again now that the webhook is ours: on PostgreSQL the list above may be older than a
                # delivery another sender has just finished.
                row = conn.execute(d.sql(
                    f"SELECT {', '.join('d.' + c.strip() for c in DELIVERY_COLUMNS.split(','))}, w.url, "
                    "w.secret, d.due_since FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id "
                    f"WHERE d.id = ? AND {_READY}"), (delivery_id, d.time(now))).fetchone()
                if row is None:
                    conn.execute(d.sql("UPDATE webhooks SET lease_until = NULL, lease_holder = NULL WHERE id = ?"),
                                 (webhook_id,))
                    continue
                return Claimed(delivery=self._delivery(row[:15]), url=row[15], secret=row[16],
                               due_since=d.stamp(row[17]))
        return None

    def finish_attempt(self, claimed: Claimed, holder: str, attempt: Attempt) -> None:
        """Record an attempt, schedule its retry or settle the delivery, and free the subscription."""
        d = self.dialect
        now = utc_now()
        status = "delivered" if attempt.ok else "pending" if attempt.retry_in_s is not None else "failed"
        retry_at = now + timedelta(seconds=attempt.retry_in_s or 0)
        with self._transaction() as conn:
            conn.execute(d.sql(
                "UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_attempt_at = ?, "
                "last_status_code = ?, last_latency_ms = ?, last_error = ?, next_attempt_at = ?, "
                "delivered_at = ? WHERE id = ?"),
                (status, d.time(now), attempt.status_code, attempt.latency_ms, attempt.error, d.time(retry_at),
                 d.time(now) if attempt.ok else None, claimed.delivery.id))
            if attempt.body is not None:
                conn.execute(d.sql("UPDATE webhook_deliveries SET body = ? WHERE id = ?"),
                             (attempt.body, claimed.delivery.id))
            conn.execute(d.sql(
                "UPDATE webhooks SET failures = CASE WHEN ? THEN 0 ELSE failures + 1 END, "
                "status = CASE WHEN ? THEN 'disabled' ELSE status END, "
                "disabled_reason = CASE WHEN ? THEN ? ELSE disabled_reason END, "
                # Free it only if still ours: a lease that ran out may already be another sender's.
                "lease_until = CASE WHEN lease_holder = ? THEN NULL ELSE lease_until END, "
                "lease_holder = CASE WHEN lease_holder = ? THEN NULL ELSE lease_holder END WHERE id = ?"),
                (attempt.ok, attempt.disable is not None, attempt.disable is not None, attempt.disable, holder, holder,
                 claimed.delivery.webhook_id))

    def deliveries(self, app: str, webhook_id: str, limit: int) -> list[DeliveryRecord] | None:
        """A subscription's latest deliveries, newest first; None if the app has no such subscription."""
        with self._reading() as conn:
            if self._owned(conn, app, webhook_id) is None:
                return None
            rows = conn.execute(self.dialect.sql(
                f"SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ? "
                "ORDER BY position DESC, ordinal DESC LIMIT ?"), (webhook_id, limit)).fetchall()
        return [self._delivery(r) for r in rows]

    def redeliver(self, app: str, webhook_id: str, delivery_id: str) -> DeliveryRecord | None:
        """Make a delivery due now and re-enable its subscription; None if the app has no such delivery."""
        d = self.dialect
        with self._transaction() as conn:
            if self._owned(conn, app, webhook_id) is None:
                return None
            now = d.now()
            changed = conn.execute(d.sql(
                "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, due_since = ?, "
                "delivered_at = NULL WHERE id = ? AND webhook_id = ?"), (now, now, delivery_id, webhook_id)).rowcount
            if not changed:
                return None
            conn.execute(d.sql("UPDATE webhooks SET status = 'active', disabled_reason = NULL, failures = 0 "
                               "WHERE id = ?"), (webhook_id,))
            row = conn.execute(d.sql(f"SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?"),
                               (delivery_id,)).fetchone()
        return self._delivery(row)
