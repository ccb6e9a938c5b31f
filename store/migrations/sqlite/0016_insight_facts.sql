-- Insights (issue 42): the fact rows of the insights projection (one per seat of each counted finished match) in a
-- table of their own with a typed column per field, so the insights API answers with SQL aggregates (GROUP BY the
-- dimensions asked, the filters in WHERE) instead of reading every row. Written with the projection's checkpoint in
-- one transaction, like its documents (store/sql_facts.py); `band` is the rating band's low end, `reps` the bits
-- saying which rows stand for their match when a length is averaged (projections/insights.py).
CREATE TABLE insight_facts (
    match_id      TEXT NOT NULL,
    seat          INTEGER NOT NULL,
    game          TEXT NOT NULL,
    edition       TEXT,
    seats         INTEGER NOT NULL,
    player        TEXT NOT NULL,
    bot           TEXT,
    rating_before REAL,
    mu_after      REAL,
    sigma_after   REAL,
    rank          INTEGER NOT NULL,
    score         REAL NOT NULL,
    result        TEXT NOT NULL,
    moves         INTEGER,
    seconds       REAL,
    end_reason    TEXT,
    month         TEXT NOT NULL,
    ended_at      TEXT NOT NULL,
    opening       TEXT,
    cooperative   INTEGER NOT NULL,
    position      INTEGER NOT NULL,
    band          REAL,
    reps          INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX insight_facts_game_idx ON insight_facts (game, position DESC);
CREATE INDEX insight_facts_player_idx ON insight_facts (player, game);
CREATE INDEX insight_facts_month_idx ON insight_facts (game, month);
CREATE INDEX insight_facts_edition_idx ON insight_facts (game, edition);
CREATE INDEX insight_facts_seats_idx ON insight_facts (game, seats, seat);
CREATE INDEX insight_facts_opening_idx ON insight_facts (game, opening);
CREATE INDEX insight_facts_bot_idx ON insight_facts (game, bot);
CREATE INDEX insight_facts_band_idx ON insight_facts (game, band);
