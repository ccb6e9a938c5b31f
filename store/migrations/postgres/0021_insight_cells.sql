-- Insights at scale (issue 42): the cells of all seven dimension columns (what a question naming four or more of them
-- sums) in a table of their own, so that such a question scans only them (≈ 55 % of the rollups' rows at 10^6
-- matches) and at about half their width: no `dims` text (every cell here names the seven), a 16-byte digest of the
-- canonical cell text for its identity (NULL is a value in it: store/sql_insight_rollups.py `digest`), the counts in
-- integer — a cell holds one month's rows of its game (`month` is never NULL), far fewer than 2^31 — and the columns
-- ordered so that none is padded (8-byte ones first, then 4-byte ones, then the texts). Kept by the projection's
-- batch in the same transaction as `insight_rollups`, with the same sums and the same add, subtract and delete-empty
-- steps.
CREATE TABLE insight_cells (
    band        double precision,
    sum_rank    bigint NOT NULL,
    sq_rank     bigint NOT NULL,
    sum_score   double precision NOT NULL,
    sq_score    double precision NOT NULL,
    sum_moves   bigint NOT NULL,
    sq_moves    bigint NOT NULL,
    sum_seconds double precision NOT NULL,
    sq_seconds  double precision NOT NULL,
    seats       integer,
    seat        integer,
    reps        integer NOT NULL,
    facts       integer NOT NULL,
    wins        integer NOT NULL,
    n_rank      integer NOT NULL,
    n_score     integer NOT NULL,
    n_moves     integer NOT NULL,
    n_seconds   integer NOT NULL,
    game        text NOT NULL,
    cell        bytea NOT NULL,
    edition     text,
    month       text,
    opening     text,
    bot         text,
    PRIMARY KEY (game, cell)
);
-- The cells already summed move over as they are (the same sums: the projection need not fold every match again),
-- named by the digest of the text that named them.
INSERT INTO insight_cells (band, sum_rank, sq_rank, sum_score, sq_score, sum_moves, sq_moves, sum_seconds, sq_seconds,
                           seats, seat, reps, facts, wins, n_rank, n_score, n_moves, n_seconds, game, cell, edition,
                           month, opening, bot)
SELECT band, sum_rank, sq_rank, sum_score, sq_score, sum_moves, sq_moves, sum_seconds, sq_seconds, seats, seat, reps,
       facts, wins, n_rank, n_score, n_moves, n_seconds, game, substring(sha256(convert_to(cell, 'UTF8')) FROM 1 FOR 16),
       edition, month, opening, bot
FROM insight_rollups WHERE dims = 'edition,seats,seat,month,opening,bot,band';
DELETE FROM insight_rollups WHERE dims = 'edition,seats,seat,month,opening,bot,band';
-- A process still running the code before this step (a rolling deploy) would write those cells here: its batch
-- fails (and is tried again by the new code) instead of their sums leaving insight_cells behind.
ALTER TABLE insight_rollups ADD CONSTRAINT insight_rollups_up_to_three
    CHECK (dims <> 'edition,seats,seat,month,opening,bot,band');
