-- Insights at scale (issue 42): the sums an insight is computed from, kept ahead of the question. For every set of
-- one to three dimension columns (`dims`, e.g. 'band,month,opening': 63 sets of the seven), one row per game, value
-- of those columns and `reps` holding the additive sums of the fact rows that have them: how many (`facts`), their
-- wins, and per averaged column (rank, score, moves, seconds) the count of its non-NULL values, their sum and sum of
-- squares. A question whose grouping and filters name at most three dimensions (and no player) sums a few hundred
-- of these rows instead of every fact row of the game. The projection's batch adds each fact row's contribution
-- (and takes back the one of a row it replaces or deletes) in the same transaction (store/sql_insight_rollups.py);
-- `cell` is the canonical text of the dimension values and `reps`, the row's identity (NULL is a value here).
CREATE TABLE insight_rollups (
    game        text NOT NULL,
    dims        text NOT NULL,
    cell        text NOT NULL,
    edition     text,
    seats       integer,
    seat        integer,
    month       text,
    opening     text,
    bot         text,
    band        double precision,
    reps        integer NOT NULL,
    facts       bigint NOT NULL,
    wins        bigint NOT NULL,
    n_rank      bigint NOT NULL,
    sum_rank    bigint NOT NULL,
    sq_rank     bigint NOT NULL,
    n_score     bigint NOT NULL,
    sum_score   double precision NOT NULL,
    sq_score    double precision NOT NULL,
    n_moves     bigint NOT NULL,
    sum_moves   bigint NOT NULL,
    sq_moves    bigint NOT NULL,
    n_seconds   bigint NOT NULL,
    sum_seconds double precision NOT NULL,
    sq_seconds  double precision NOT NULL,
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
