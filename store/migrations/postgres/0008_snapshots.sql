-- Snapshots: the newest folded state saved of a match (service/snapshots.py), so a process that never saw a long
-- match reads it and the events after it instead of folding them all. An accelerator, never evidence: `head_hash`
-- is the hash of the event at `version`, and a snapshot is used only when that event is stored with that hash and
-- `fingerprint` names the rules code running now; otherwise the match is folded from its first event. Verification,
-- audits and exports never read this table. Matches are never deleted (events reference them), so nothing cascades.
CREATE TABLE snapshots (
    match_id    text PRIMARY KEY REFERENCES matches (id),
    version     integer NOT NULL CHECK (version >= 1),
    fingerprint text NOT NULL,
    head_hash   text NOT NULL,
    state       bytea NOT NULL,
    saved_at    timestamptz NOT NULL
);
