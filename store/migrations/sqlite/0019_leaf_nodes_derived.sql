-- The transparency log keeps no level-0 node rows (issue 45: the database's work per move): a level-0 node is the
-- hash of its leaf's data (`leaf_hash(event_leaf(stream, version, chain hash))`, ledger/merkle.py), which the leaf's
-- own row holds, so the store derives it when a proof, a tile or the sequencer asks (store/sql_transparency.py).
-- One row fewer per event and about a third of the log's bytes. The rows already written go; the immutability
-- trigger stands aside for this one statement only.
DROP TRIGGER log_nodes_no_delete;
DELETE FROM log_nodes WHERE level = 0;
CREATE TRIGGER log_nodes_no_delete BEFORE DELETE ON log_nodes
BEGIN
    SELECT RAISE(ABORT, 'turnstile: DELETE on log_nodes is not allowed');
END;
