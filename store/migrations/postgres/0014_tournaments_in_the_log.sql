-- Every stream is in the log (issue 38): tournament events become leaves of the one RFC 9162 tree, as match events
-- are. `logged_version` is how many of a tournament's events are leaves; the sequencer takes the events after it
-- (the leaf's stream is "tournament:<id>", see ledger/merkle.py) and moves it on in its own transaction. Tournaments
-- recorded before this step are sequenced by the first sequencer run after it.
ALTER TABLE tournaments ADD COLUMN logged_version integer NOT NULL DEFAULT 0;
CREATE INDEX tournaments_unlogged ON tournaments (id) WHERE version > logged_version;
