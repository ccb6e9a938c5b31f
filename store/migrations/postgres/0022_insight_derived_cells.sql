-- Insights at scale (issue 42): cells for the questions naming four or more dimensions that the cells of all seven
-- answer slowly. Those cells grow with the months the data spans (≈ 220,000 at 10^6 matches over 24 months), and a
-- question summed every one of them. Kept here, per game, for a fixed list of dimension sets:
-- * the six dimensions other than `month`: bounded by those six's values whatever the span (≈ 9,300 cells at 10^5
--   and at 10^6 matches), for a question that does not name the month;
-- * each set of four that holds the month (20 sets): the months times the cells of three dimensions, for a question
--   naming the month and three others.
-- They are sums of `insight_cells`, and the database keeps them so: statement triggers on `insight_cells` add each
-- statement's inserted, updated and deleted cells' sums (their transition tables) to every set's cells. Every writer
-- of `insight_cells` thus keeps them right, a process still running the code before this step included, and no
-- application code writes them. A cell is named by its set (`dims`, as store/sql_insight_rollups.py names sets) and
-- the JSON text the database builds of its values and `reps` (NULL is a value in it).
-- The sets: their names, and a bit per dimension in each (edition 1, seats 2, seat 4, month 8, opening 16, bot 32,
-- band 64).
CREATE TABLE insight_derived_sets (
    dims text PRIMARY KEY,
    mask integer NOT NULL
);
INSERT INTO insight_derived_sets (dims, mask) VALUES
    ('edition,seats,seat,opening,bot,band', 119),
    ('edition,seats,seat,month', 15),
    ('edition,seats,month,opening', 27),
    ('edition,seats,month,bot', 43),
    ('edition,seats,month,band', 75),
    ('edition,seat,month,opening', 29),
    ('edition,seat,month,bot', 45),
    ('edition,seat,month,band', 77),
    ('edition,month,opening,bot', 57),
    ('edition,month,opening,band', 89),
    ('edition,month,bot,band', 105),
    ('seats,seat,month,opening', 30),
    ('seats,seat,month,bot', 46),
    ('seats,seat,month,band', 78),
    ('seats,month,opening,bot', 58),
    ('seats,month,opening,band', 90),
    ('seats,month,bot,band', 106),
    ('seat,month,opening,bot', 60),
    ('seat,month,opening,band', 92),
    ('seat,month,bot,band', 108),
    ('month,opening,bot,band', 120);

CREATE TABLE insight_derived_cells (
    band        double precision,
    sum_rank    bigint NOT NULL,
    sq_rank     bigint NOT NULL,
    sum_score   double precision NOT NULL,
    sq_score    double precision NOT NULL,
    sum_moves   bigint NOT NULL,
    sq_moves    bigint NOT NULL,
    sum_seconds double precision NOT NULL,
    sq_seconds  double precision NOT NULL,
    facts       bigint NOT NULL,
    wins        bigint NOT NULL,
    n_rank      bigint NOT NULL,
    n_score     bigint NOT NULL,
    n_moves     bigint NOT NULL,
    n_seconds   bigint NOT NULL,
    seats       integer,
    seat        integer,
    reps        integer NOT NULL,
    game        text NOT NULL,
    dims        text NOT NULL,
    cell        text NOT NULL,
    edition     text,
    month       text,
    opening     text,
    bot         text,
    PRIMARY KEY (game, dims, cell)
);
-- The cells a statement has just emptied, found without scanning the table.
CREATE INDEX insight_derived_cells_empty ON insight_derived_cells (game) WHERE facts = 0;

-- Add `added` and take away `removed` (rows of insight_cells) in every set's cells, then drop the cells left without
-- rows. A float sum left with no values is set to 0, as the batches set theirs (store/sql_insight_rollups.py `_sum`).
-- PL/pgSQL, not SQL: it keeps its statements' plans for the session, where an SQL function plans them at every call.
CREATE FUNCTION insight_derived_apply(added insight_cells[], removed insight_cells[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO insight_derived_cells AS t (game, dims, cell, edition, seats, seat, month, opening, bot, band, reps,
                                            facts, wins, n_rank, sum_rank, sq_rank, n_score, sum_score, sq_score,
                                            n_moves, sum_moves, sq_moves, n_seconds, sum_seconds, sq_seconds)
    SELECT game, dims, json_build_array(edition, seats, seat, month, opening, bot, band, reps)::text, edition, seats,
           seat, month, opening, bot, band, reps, sum(facts), sum(wins), sum(n_rank), sum(sum_rank), sum(sq_rank),
           sum(n_score), sum(sum_score), sum(sq_score), sum(n_moves), sum(sum_moves), sum(sq_moves), sum(n_seconds),
           sum(sum_seconds), sum(sq_seconds)
    FROM (SELECT c.game, s.dims, CASE WHEN s.mask & 1 <> 0 THEN c.edition END AS edition,
                 CASE WHEN s.mask & 2 <> 0 THEN c.seats END AS seats, CASE WHEN s.mask & 4 <> 0 THEN c.seat END AS seat,
                 CASE WHEN s.mask & 8 <> 0 THEN c.month END AS month,
                 CASE WHEN s.mask & 16 <> 0 THEN c.opening END AS opening,
                 CASE WHEN s.mask & 32 <> 0 THEN c.bot END AS bot, CASE WHEN s.mask & 64 <> 0 THEN c.band END AS band,
                 c.reps, c.facts, c.wins, c.n_rank, c.sum_rank, c.sq_rank, c.n_score, c.sum_score, c.sq_score,
                 c.n_moves, c.sum_moves, c.sq_moves, c.n_seconds, c.sum_seconds, c.sq_seconds
          FROM (SELECT game, edition, seats, seat, month, opening, bot, band, reps, facts, wins, n_rank, sum_rank,
                       sq_rank, n_score, sum_score, sq_score, n_moves, sum_moves, sq_moves, n_seconds, sum_seconds,
                       sq_seconds
                FROM unnest(added)
                UNION ALL
                SELECT game, edition, seats, seat, month, opening, bot, band, reps, -facts, -wins, -n_rank, -sum_rank,
                       -sq_rank, -n_score, -sum_score, -sq_score, -n_moves, -sum_moves, -sq_moves, -n_seconds,
                       -sum_seconds, -sq_seconds
                FROM unnest(removed)) AS c
          CROSS JOIN insight_derived_sets AS s) AS moved
    GROUP BY game, dims, edition, seats, seat, month, opening, bot, band, reps
    ON CONFLICT (game, dims, cell) DO UPDATE SET
        facts = t.facts + excluded.facts, wins = t.wins + excluded.wins,
        n_rank = t.n_rank + excluded.n_rank, sum_rank = t.sum_rank + excluded.sum_rank,
        sq_rank = t.sq_rank + excluded.sq_rank,
        n_score = t.n_score + excluded.n_score,
        sum_score = CASE WHEN t.n_score + excluded.n_score = 0 THEN 0 ELSE t.sum_score + excluded.sum_score END,
        sq_score = CASE WHEN t.n_score + excluded.n_score = 0 THEN 0 ELSE t.sq_score + excluded.sq_score END,
        n_moves = t.n_moves + excluded.n_moves, sum_moves = t.sum_moves + excluded.sum_moves,
        sq_moves = t.sq_moves + excluded.sq_moves,
        n_seconds = t.n_seconds + excluded.n_seconds,
        sum_seconds = CASE WHEN t.n_seconds + excluded.n_seconds = 0 THEN 0
                           ELSE t.sum_seconds + excluded.sum_seconds END,
        sq_seconds = CASE WHEN t.n_seconds + excluded.n_seconds = 0 THEN 0 ELSE t.sq_seconds + excluded.sq_seconds END;
    DELETE FROM insight_derived_cells WHERE facts = 0;
END
$$;

-- One function for the three triggers: each names only the transition tables its event has.
CREATE FUNCTION insight_derived_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    added insight_cells[];
    removed insight_cells[];
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT array_agg(n) INTO added FROM new_cells n;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        SELECT array_agg(o) INTO removed FROM old_cells o;
    END IF;
    IF added IS NOT NULL OR removed IS NOT NULL THEN
        PERFORM insight_derived_apply(added, removed);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER insight_derived_on_insert AFTER INSERT ON insight_cells REFERENCING NEW TABLE AS new_cells
    FOR EACH STATEMENT EXECUTE FUNCTION insight_derived_follow();
CREATE TRIGGER insight_derived_on_update AFTER UPDATE ON insight_cells
    REFERENCING OLD TABLE AS old_cells NEW TABLE AS new_cells
    FOR EACH STATEMENT EXECUTE FUNCTION insight_derived_follow();
CREATE TRIGGER insight_derived_on_delete AFTER DELETE ON insight_cells REFERENCING OLD TABLE AS old_cells
    FOR EACH STATEMENT EXECUTE FUNCTION insight_derived_follow();

-- The cells already summed, into every set's.
SELECT insight_derived_apply(coalesce((SELECT array_agg(c) FROM insight_cells c), '{}'), '{}');

-- A question naming five or more dimensions, a month filter among them, reads that month's cells of all seven, not
-- the game's every month.
CREATE INDEX insight_cells_month ON insight_cells (game, month);
