-- The transparency log (store/sql_transparency.py): one RFC 9162 Merkle tree over every event in log order.
-- `log_state` is the sequencer's one row: the tree's size and the last event it took (read_all resumes after it).
-- SQLite's one writer (BEGIN IMMEDIATE) makes one sequencer at a time.
CREATE TABLE log_state (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    size           INTEGER NOT NULL CHECK (size >= 0),
    after_position INTEGER NOT NULL
);
INSERT INTO log_state (id, size, after_position) VALUES (1, 0, 0);

-- Leaf `idx` is event (match_id, version) with chain hash `hash`; its leaf hash is node (0, idx).
CREATE TABLE log_leaves (
    idx      INTEGER PRIMARY KEY,
    match_id TEXT NOT NULL,
    version  INTEGER NOT NULL,
    hash     TEXT NOT NULL,
    position INTEGER NOT NULL,
    UNIQUE (match_id, version)
);

-- Every perfect subtree: the 2^level leaves from idx * 2^level on. Proofs fold O(log n) of them.
CREATE TABLE log_nodes (
    level INTEGER NOT NULL,
    idx   INTEGER NOT NULL,
    hash  BLOB NOT NULL,
    PRIMARY KEY (level, idx)
) WITHOUT ROWID;

-- Signed checkpoints (signed-note text), at most one a second while the log grows.
CREATE TABLE log_checkpoints (
    size      INTEGER PRIMARY KEY,
    root      BLOB NOT NULL,
    note      TEXT NOT NULL,
    signed_at TEXT NOT NULL
);

-- Like events: facts, never changed or deleted.
CREATE TRIGGER log_leaves_no_change BEFORE UPDATE ON log_leaves
BEGIN
    SELECT RAISE(ABORT, 'turnstile: UPDATE on log_leaves is not allowed');
END;
CREATE TRIGGER log_leaves_no_delete BEFORE DELETE ON log_leaves
BEGIN
    SELECT RAISE(ABORT, 'turnstile: DELETE on log_leaves is not allowed');
END;
CREATE TRIGGER log_nodes_no_change BEFORE UPDATE ON log_nodes
BEGIN
    SELECT RAISE(ABORT, 'turnstile: UPDATE on log_nodes is not allowed');
END;
CREATE TRIGGER log_nodes_no_delete BEFORE DELETE ON log_nodes
BEGIN
    SELECT RAISE(ABORT, 'turnstile: DELETE on log_nodes is not allowed');
END;
CREATE TRIGGER log_checkpoints_no_change BEFORE UPDATE ON log_checkpoints
BEGIN
    SELECT RAISE(ABORT, 'turnstile: UPDATE on log_checkpoints is not allowed');
END;
CREATE TRIGGER log_checkpoints_no_delete BEFORE DELETE ON log_checkpoints
BEGIN
    SELECT RAISE(ABORT, 'turnstile: DELETE on log_checkpoints is not allowed');
END;
