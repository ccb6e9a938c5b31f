-- Appends no longer take a store-wide lock. Each event records the transaction that wrote it; read_all returns
-- events of transactions older than every running one, in (xid, position) order (store/postgres.py). Rows
-- written before this migration were serialised by the old lock: xid 0 keeps them in position order, first.
ALTER TABLE events ADD COLUMN xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE events ALTER COLUMN xid SET DEFAULT pg_current_xact_id();
CREATE INDEX events_log_order_idx ON events (xid, position);
