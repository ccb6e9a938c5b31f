-- `player=` (GET /v1/matches, the bulk export) as an index lookup: one row a (player identity, match), kept by the
-- triggers below whenever a match is created or its seats change (an append that fills an open seat writes `seats`),
-- so SQLite no longer opens every match's seats JSON to find a player (1.6 s at 10^5 matches for a player in none).
-- The identities are those the seats hold (migration 0018, store/sql.py `seats_param`): "Ada" and "ada" are one.
-- PostgreSQL answers the same filter from its GIN index on `seats`.
CREATE TABLE match_players (
    identity TEXT NOT NULL,
    match_id TEXT NOT NULL REFERENCES matches (id),
    PRIMARY KEY (identity, match_id)
) WITHOUT ROWID;

CREATE TRIGGER match_players_created AFTER INSERT ON matches BEGIN
    INSERT OR IGNORE INTO match_players (identity, match_id)
    SELECT json_extract(seat.value, '$.identity'), NEW.id FROM json_each(NEW.seats) AS seat
    WHERE json_extract(seat.value, '$.identity') IS NOT NULL;
END;

-- `UPDATE OF seats` fires on every append (`seats = coalesce(?, seats)`), hence the WHEN; the old rows are deleted
-- by their full key (identity first), which the primary key serves without an index on match_id.
CREATE TRIGGER match_players_seated AFTER UPDATE OF seats ON matches WHEN NEW.seats IS NOT OLD.seats BEGIN
    DELETE FROM match_players WHERE match_id = OLD.id
        AND identity IN (SELECT json_extract(seat.value, '$.identity') FROM json_each(OLD.seats) AS seat);
    INSERT OR IGNORE INTO match_players (identity, match_id)
    SELECT json_extract(seat.value, '$.identity'), NEW.id FROM json_each(NEW.seats) AS seat
    WHERE json_extract(seat.value, '$.identity') IS NOT NULL;
END;

INSERT OR IGNORE INTO match_players (identity, match_id)
SELECT json_extract(seat.value, '$.identity'), matches.id FROM matches, json_each(matches.seats) AS seat
WHERE json_extract(seat.value, '$.identity') IS NOT NULL;
