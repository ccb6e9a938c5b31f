-- The transparency log (store/sql_transparency.py): one RFC 9162 Merkle tree over every event in log order.
-- `log_state` is the sequencer's one row: the tree's size and the last event it took (read_all resumes after it);
-- a sequencer holds it locked (FOR UPDATE SKIP LOCKED) for its whole transaction, so one appends at a time.
CREATE TABLE log_state (
    id             integer PRIMARY KEY CHECK (id = 1),
    size           bigint NOT NULL CHECK (size >= 0),
    after_position bigint NOT NULL
);
INSERT INTO log_state (id, size, after_position) VALUES (1, 0, 0);

-- Leaf `idx` is event (match_id, version) with chain hash `hash`; its leaf hash is node (0, idx).
CREATE TABLE log_leaves (
    idx      bigint PRIMARY KEY,
    match_id text NOT NULL,
    version  integer NOT NULL,
    hash     text NOT NULL,
    position bigint NOT NULL,
    CONSTRAINT log_leaves_event_key UNIQUE (match_id, version)
);

-- Every perfect subtree: the 2^level leaves from idx * 2^level on. Proofs fold O(log n) of them.
CREATE TABLE log_nodes (
    level integer NOT NULL,
    idx   bigint NOT NULL,
    hash  bytea NOT NULL,
    PRIMARY KEY (level, idx)
);

-- Signed checkpoints (signed-note text), at most one a second while the log grows.
CREATE TABLE log_checkpoints (
    size      bigint PRIMARY KEY,
    root      bytea NOT NULL,
    note      text NOT NULL,
    signed_at timestamptz NOT NULL
);

-- Like events: facts, never changed or deleted.
CREATE TRIGGER log_leaves_immutable BEFORE UPDATE OR DELETE ON log_leaves
    FOR EACH ROW EXECUTE FUNCTION turnstile_refuse_change();
CREATE TRIGGER log_nodes_immutable BEFORE UPDATE OR DELETE ON log_nodes
    FOR EACH ROW EXECUTE FUNCTION turnstile_refuse_change();
CREATE TRIGGER log_checkpoints_immutable BEFORE UPDATE OR DELETE ON log_checkpoints
    FOR EACH ROW EXECUTE FUNCTION turnstile_refuse_change();
