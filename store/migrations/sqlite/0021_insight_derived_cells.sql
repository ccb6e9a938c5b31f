-- Insights at scale (issue 42): cells for the questions naming four or more dimensions that the cells of all seven
-- answer slowly (those grow with the months the data spans, and such a question summed every one of them). Kept here,
-- per game, for a fixed list of dimension sets: the six dimensions other than `month` (bounded by those six's values
-- whatever the span), and each set of four that holds the month (20 sets: the months times the cells of three
-- dimensions).
--
-- They are sums of `insight_cells`, and the database keeps them so: triggers on `insight_cells` write each inserted,
-- updated or deleted cell's change of sums into the view `insight_cell_changes`, whose INSTEAD OF trigger (the one
-- place the upsert is written: SQLite has no functions of its own) adds it to every set's cell. Every writer of
-- `insight_cells` thus keeps them right, one running the code before this step included, and no application code
-- writes them. A cell is named by its set (`dims`, as store/sql_insight_rollups.py names sets) and the JSON text the
-- database builds of its values and `reps` (NULL is a value in it). A float sum left with no values is set to 0, as
-- the batches set theirs (store/sql_insight_rollups.py `_sum`); a cell left without rows goes.

-- The sets: their names, and a bit per dimension in each (edition 1, seats 2, seat 4, month 8, opening 16, bot 32,
-- band 64).
CREATE TABLE insight_derived_sets (
    dims TEXT PRIMARY KEY,
    mask INTEGER NOT NULL
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
-- The cells a change has just emptied, found without scanning the game's.
CREATE INDEX insight_derived_cells_empty ON insight_derived_cells (game) WHERE facts = 0;

CREATE VIEW insight_cell_changes AS
SELECT game, edition, seats, seat, month, opening, bot, band, reps, facts, wins, n_rank, sum_rank, sq_rank, n_score,
       sum_score, sq_score, n_moves, sum_moves, sq_moves, n_seconds, sum_seconds, sq_seconds
FROM insight_cells WHERE 0;
CREATE TRIGGER insight_derived_add INSTEAD OF INSERT ON insight_cell_changes
BEGIN
    INSERT INTO insight_derived_cells (dims, cell, game, edition, seats, seat, month, opening, bot, band, reps,
                                       facts, wins, n_rank, sum_rank, sq_rank, n_score, sum_score, sq_score, n_moves,
                                       sum_moves, sq_moves, n_seconds, sum_seconds, sq_seconds)
    SELECT dims, json_array(edition, seats, seat, month, opening, bot, band, reps), game, edition, seats, seat, month,
           opening, bot, band, reps, facts, wins, n_rank, sum_rank, sq_rank, n_score, sum_score, sq_score, n_moves,
           sum_moves, sq_moves, n_seconds, sum_seconds, sq_seconds
    FROM (SELECT s.dims AS dims, NEW.game AS game, CASE WHEN s.mask & 1 THEN NEW.edition END AS edition,
                 CASE WHEN s.mask & 2 THEN NEW.seats END AS seats, CASE WHEN s.mask & 4 THEN NEW.seat END AS seat,
                 CASE WHEN s.mask & 8 THEN NEW.month END AS month,
                 CASE WHEN s.mask & 16 THEN NEW.opening END AS opening,
                 CASE WHEN s.mask & 32 THEN NEW.bot END AS bot, CASE WHEN s.mask & 64 THEN NEW.band END AS band,
                 NEW.reps AS reps, NEW.facts AS facts, NEW.wins AS wins, NEW.n_rank AS n_rank,
                 NEW.sum_rank AS sum_rank, NEW.sq_rank AS sq_rank, NEW.n_score AS n_score, NEW.sum_score AS sum_score,
                 NEW.sq_score AS sq_score, NEW.n_moves AS n_moves, NEW.sum_moves AS sum_moves,
                 NEW.sq_moves AS sq_moves, NEW.n_seconds AS n_seconds, NEW.sum_seconds AS sum_seconds,
                 NEW.sq_seconds AS sq_seconds
          FROM insight_derived_sets AS s)
    WHERE true
    ON CONFLICT (game, dims, cell) DO UPDATE SET
        facts = insight_derived_cells.facts + excluded.facts,
        wins = insight_derived_cells.wins + excluded.wins,
        n_rank = insight_derived_cells.n_rank + excluded.n_rank,
        sum_rank = insight_derived_cells.sum_rank + excluded.sum_rank,
        sq_rank = insight_derived_cells.sq_rank + excluded.sq_rank,
        n_score = insight_derived_cells.n_score + excluded.n_score,
        sum_score = CASE WHEN insight_derived_cells.n_score + excluded.n_score = 0 THEN 0
                    ELSE insight_derived_cells.sum_score + excluded.sum_score END,
        sq_score = CASE WHEN insight_derived_cells.n_score + excluded.n_score = 0 THEN 0
                   ELSE insight_derived_cells.sq_score + excluded.sq_score END,
        n_moves = insight_derived_cells.n_moves + excluded.n_moves,
        sum_moves = insight_derived_cells.sum_moves + excluded.sum_moves,
        sq_moves = insight_derived_cells.sq_moves + excluded.sq_moves,
        n_seconds = insight_derived_cells.n_seconds + excluded.n_seconds,
        sum_seconds = CASE WHEN insight_derived_cells.n_seconds + excluded.n_seconds = 0 THEN 0
                      ELSE insight_derived_cells.sum_seconds + excluded.sum_seconds END,
        sq_seconds = CASE WHEN insight_derived_cells.n_seconds + excluded.n_seconds = 0 THEN 0
                     ELSE insight_derived_cells.sq_seconds + excluded.sq_seconds END;
    DELETE FROM insight_derived_cells WHERE game = NEW.game AND facts = 0;
END;

CREATE TRIGGER insight_derived_on_insert AFTER INSERT ON insight_cells
BEGIN
    INSERT INTO insight_cell_changes
    SELECT NEW.game, NEW.edition, NEW.seats, NEW.seat, NEW.month, NEW.opening, NEW.bot, NEW.band, NEW.reps,
           NEW.facts, NEW.wins, NEW.n_rank, NEW.sum_rank, NEW.sq_rank, NEW.n_score, NEW.sum_score, NEW.sq_score,
           NEW.n_moves, NEW.sum_moves, NEW.sq_moves, NEW.n_seconds, NEW.sum_seconds, NEW.sq_seconds;
END;

CREATE TRIGGER insight_derived_on_update AFTER UPDATE ON insight_cells
BEGIN
    INSERT INTO insight_cell_changes
    SELECT NEW.game, NEW.edition, NEW.seats, NEW.seat, NEW.month, NEW.opening, NEW.bot, NEW.band, NEW.reps,
           NEW.facts - OLD.facts, NEW.wins - OLD.wins, NEW.n_rank - OLD.n_rank, NEW.sum_rank - OLD.sum_rank,
           NEW.sq_rank - OLD.sq_rank, NEW.n_score - OLD.n_score, NEW.sum_score - OLD.sum_score,
           NEW.sq_score - OLD.sq_score, NEW.n_moves - OLD.n_moves, NEW.sum_moves - OLD.sum_moves,
           NEW.sq_moves - OLD.sq_moves, NEW.n_seconds - OLD.n_seconds, NEW.sum_seconds - OLD.sum_seconds,
           NEW.sq_seconds - OLD.sq_seconds;
END;

CREATE TRIGGER insight_derived_on_delete AFTER DELETE ON insight_cells
BEGIN
    INSERT INTO insight_cell_changes
    SELECT OLD.game, OLD.edition, OLD.seats, OLD.seat, OLD.month, OLD.opening, OLD.bot, OLD.band, OLD.reps,
           -OLD.facts, -OLD.wins, -OLD.n_rank, -OLD.sum_rank, -OLD.sq_rank, -OLD.n_score, -OLD.sum_score,
           -OLD.sq_score, -OLD.n_moves, -OLD.sum_moves, -OLD.sq_moves, -OLD.n_seconds, -OLD.sum_seconds,
           -OLD.sq_seconds;
END;

-- The cells already summed, into every set's.
INSERT INTO insight_cell_changes
SELECT game, edition, seats, seat, month, opening, bot, band, reps, facts, wins, n_rank, sum_rank, sq_rank, n_score,
       sum_score, sq_score, n_moves, sum_moves, sq_moves, n_seconds, sum_seconds, sq_seconds
FROM insight_cells;

-- A question naming five or more dimensions, a month filter among them, reads that month's cells of all seven, not
-- the game's every month.
CREATE INDEX insight_cells_month ON insight_cells (game, month);
