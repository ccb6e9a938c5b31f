-- Read models of the projections: documents by (projection, kind, key), with an indexed group and rank
-- (leaderboards: group = game, rank = conservative rating), and one checkpoint row per projection,
-- written in the same transaction as the documents it covers.
CREATE TABLE projection_checkpoints (
    projection     TEXT PRIMARY KEY,
    version        INTEGER NOT NULL,
    position       INTEGER NOT NULL DEFAULT 0,
    error          TEXT,
    error_position INTEGER,
    updated_at     TEXT NOT NULL
);

CREATE TABLE projection_docs (
    projection TEXT NOT NULL,
    kind       TEXT NOT NULL,
    key        TEXT NOT NULL,
    doc        TEXT NOT NULL,
    grp        TEXT NOT NULL DEFAULT '',
    rank       REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (projection, kind, key)
);
CREATE INDEX projection_docs_group_rank_idx ON projection_docs (projection, kind, grp, rank DESC, key);
