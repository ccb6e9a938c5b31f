-- The transparency log keeps no level-0 node rows (issue 45: the database's work per move): a level-0 node is the
-- hash of its leaf's data (`leaf_hash(event_leaf(stream, version, chain hash))`, ledger/merkle.py), which the leaf's
-- own row holds, so the store derives it when a proof, a tile or the sequencer asks (store/sql_transparency.py).
-- One row fewer per event and about a third of the log's bytes. The rows already written go; the immutability
-- trigger stands aside for this one statement only.
ALTER TABLE log_nodes DISABLE TRIGGER log_nodes_immutable;
DELETE FROM log_nodes WHERE level = 0;
ALTER TABLE log_nodes ENABLE TRIGGER log_nodes_immutable;
