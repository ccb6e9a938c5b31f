-- Insights (issue 42): the fact rows of the insights projection (one per seat of each counted finished match) in a
-- table of their own with a typed column per field, so the insights API answers with SQL aggregates (GROUP BY the
-- dimensions asked, the filters in WHERE) instead of reading every row. Written with the projection's checkpoint in
-- one transaction, like its documents (store/sql_facts.py); `band` is the rating band's low end, `reps` the bits
-- saying which rows stand for their match when a length is averaged (projections/insights.py).
CREATE TABLE insight_facts (
    match_id      text NOT NULL,
    seat          integer NOT NULL,
    game          text NOT NULL,
    edition       text,
    seats         integer NOT NULL,
    player        text NOT NULL,
    bot           text,
    rating_before double precision,
    mu_after      double precision,
    sigma_after   double precision,
    rank          integer NOT NULL,
    score         double precision NOT NULL,
    result        text NOT NULL,
    moves         integer,
    seconds       double precision,
    end_reason    text,
    month         text NOT NULL,
    ended_at      text NOT NULL,
    opening       text,
    cooperative   boolean NOT NULL,
    position      bigint NOT NULL,
    band          double precision,
    reps          integer NOT NULL,
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
