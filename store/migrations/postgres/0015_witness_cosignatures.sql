-- Witnesses' cosignatures of the log's checkpoints (issue 40; service/log/cosigning.py collects them).
-- `log_cosignatures`: one tlog-cosignature line per (checkpoint size, witness name of the policy); a fact, never
-- changed. `log_witnesses`: per witness, the size it last cosigned (or, after a 409, the size it says it did), the
-- `old` of the next add-checkpoint request.
CREATE TABLE log_cosignatures (
    size    bigint NOT NULL REFERENCES log_checkpoints (size),
    witness text NOT NULL,
    line    text NOT NULL,
    PRIMARY KEY (size, witness)
);
CREATE TABLE log_witnesses (
    witness text PRIMARY KEY,
    size    bigint NOT NULL CHECK (size >= 0)
);
-- Which process collects cosignatures (one at a time, whatever the number of API processes): a lease, renewed by its
-- holder each round and taken over by another once `until_s` (POSIX seconds) has passed.
CREATE TABLE log_cosigner (
    id      integer PRIMARY KEY CHECK (id = 1),
    holder  text NOT NULL,
    until_s double precision NOT NULL
);
CREATE TRIGGER log_cosignatures_immutable BEFORE UPDATE OR DELETE ON log_cosignatures
    FOR EACH ROW EXECUTE FUNCTION turnstile_refuse_change();
