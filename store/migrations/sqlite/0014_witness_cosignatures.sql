-- Witnesses' cosignatures of the log's checkpoints: see postgres/0015_witness_cosignatures.sql.
CREATE TABLE log_cosignatures (
    size    INTEGER NOT NULL REFERENCES log_checkpoints (size),
    witness TEXT NOT NULL,
    line    TEXT NOT NULL,
    PRIMARY KEY (size, witness)
);
CREATE TABLE log_witnesses (
    witness TEXT PRIMARY KEY,
    size    INTEGER NOT NULL CHECK (size >= 0)
);
CREATE TABLE log_cosigner (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    holder  TEXT NOT NULL,
    until_s REAL NOT NULL
);
CREATE TRIGGER log_cosignatures_no_change BEFORE UPDATE ON log_cosignatures
BEGIN
    SELECT RAISE(ABORT, 'turnstile: UPDATE on log_cosignatures is not allowed');
END;
CREATE TRIGGER log_cosignatures_no_delete BEFORE DELETE ON log_cosignatures
BEGIN
    SELECT RAISE(ABORT, 'turnstile: DELETE on log_cosignatures is not allowed');
END;
