-- Every stream is in the log: see postgres/0014_tournaments_in_the_log.sql.
ALTER TABLE tournaments ADD COLUMN logged_version INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tournaments_unlogged ON tournaments (id) WHERE version > logged_version;
