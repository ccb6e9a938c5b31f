-- Insights at scale (issue 42): the sums an insight is computed from, kept ahead of the question. For every set of
-- one to three dimension columns (`dims`, e.g. 'band,month,opening': 63 sets of the seven), one row per game, value
-- of those columns and `reps` holding the additive sums of the fact rows that have them: how many (`facts`), their
-- wins, and per averaged column (rank, score, moves, seconds) the count of its non-NULL values, their sum and sum of
-- squares. A question whose grouping and filters name at most three dimensions (and no player) sums a few hundred
-- of these rows instead of every fact row of the game. The projection's batch adds each fact row's contribution
-- (and takes back the one of a row it replaces or deletes) in the same transaction (store/sql_insight_rollups.py);
-- `cell` is the canonical text of the dimension values and `reps`, the row's identity (NULL is a value here).
CREATE TABLE insight_rollups (
    game        TEXT NOT NULL,
    dims        TEXT NOT NULL,
    cell        TEXT NOT NULL,
    edition     TEXT,
    seats       INTEGER,
    seat        INTEGER,
    month       TEXT,
    opening     TEXT,
    bot         TEXT,
    band        REAL,
    reps        INTEGER NOT NULL,
    facts       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    n_rank      INTEGER NOT NULL,
    sum_rank    INTEGER NOT NULL,
    sq_rank     INTEGER NOT NULL,
    n_score     INTEGER NOT NULL,
    sum_score   REAL NOT NULL,
    sq_score    REAL NOT NULL,
    n_moves     INTEGER NOT NULL,
    sum_moves   INTEGER NOT NULL,
    sq_moves    INTEGER NOT NULL,
    n_seconds   INTEGER NOT NULL,
    sum_seconds REAL NOT NULL,
    sq_seconds  REAL NOT NULL,
    PRIMARY KEY (game, dims, cell)
);
-- The questions the rollups answer no longer scan the facts by a dimension: those indexes only cost writes now. The
-- facts keep their key, the game's newest-first order (paging) and the player's index (a player's insights).
DROP INDEX insight_facts_month_idx;
DROP INDEX insight_facts_edition_idx;
DROP INDEX insight_facts_seats_idx;
DROP INDEX insight_facts_opening_idx;
DROP INDEX insight_facts_bot_idx;
DROP INDEX insight_facts_band_idx;
