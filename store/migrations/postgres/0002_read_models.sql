-- Read models of the projections: documents by (projection, kind, key), with an indexed group and rank
-- (leaderboards: group = game, rank = conservative rating), and one checkpoint row per projection,
-- written in the same transaction as the documents it covers.
CREATE TABLE projection_checkpoints (
    projection     text PRIMARY KEY,
    version        integer NOT NULL,
    position       bigint NOT NULL DEFAULT 0,
    error          text,
    error_position bigint,
    updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE projection_docs (
    projection text NOT NULL,
    kind       text NOT NULL,
    key        text NOT NULL,
    doc        jsonb NOT NULL,
    grp        text NOT NULL DEFAULT '',
    rank       double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (projection, kind, key)
);
CREATE INDEX projection_docs_group_rank_idx ON projection_docs (projection, kind, grp, rank DESC, key);
