-- Insights at scale (issue 42): the cells of all seven dimension columns (what a question naming four or more of them
-- sums) in a table of their own, so that such a question scans only them, and narrower: no `dims` text (every cell
-- here names the seven) and a 16-byte digest of the canonical cell text for its identity (NULL is a value in it:
-- store/sql_insight_rollups.py `digest`). Kept by the projection's batch in the same transaction as
-- `insight_rollups`, with the same sums and the same add, subtract and delete-empty steps.
CREATE TABLE insight_cells (
    game        TEXT NOT NULL,
    cell        BLOB NOT NULL,
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
    PRIMARY KEY (game, cell)
);
-- The cells already summed move over as they are (the same sums: the projection need not fold every match again),
-- named by the digest of the text that named them (`turnstile_cell_digest`, which the store registers on its
-- connection: the very function the batch names cells with).
INSERT INTO insight_cells (game, cell, edition, seats, seat, month, opening, bot, band, reps, facts, wins, n_rank,
                           sum_rank, sq_rank, n_score, sum_score, sq_score, n_moves, sum_moves, sq_moves, n_seconds,
                           sum_seconds, sq_seconds)
SELECT game, turnstile_cell_digest(cell), edition, seats, seat, month, opening, bot, band, reps, facts, wins, n_rank,
       sum_rank, sq_rank, n_score, sum_score, sq_score, n_moves, sum_moves, sq_moves, n_seconds, sum_seconds, sq_seconds
FROM insight_rollups WHERE dims = 'edition,seats,seat,month,opening,bot,band';
DELETE FROM insight_rollups WHERE dims = 'edition,seats,seat,month,opening,bot,band';
-- A process still running the code before this step would write those cells here: its batch fails instead of their
-- sums leaving insight_cells behind.
CREATE TRIGGER insight_rollups_up_to_three BEFORE INSERT ON insight_rollups
WHEN NEW.dims = 'edition,seats,seat,month,opening,bot,band'
BEGIN
    SELECT RAISE(ABORT, 'the cells of all seven dimensions are kept in insight_cells');
END;
