-- `GET /v1/matches?player=` finds a player whatever the case of the handle, as statistics, ratings and player pages
-- do (domain/handles.py: "Ada" and "ada" are one player). Each seat of the `seats` column now also holds its player's
-- identity (written by the store: store/sql.py `seats_param`); rows written before get it here from the very
-- function (`turnstile_identity`, which the store registers on its connection). Numbered 0018: 0017 is another
-- branch's.
UPDATE matches SET seats = (
    SELECT json_group_array(json(seat)) FROM (
        SELECT json_set(s.value, '$.identity', turnstile_identity(json_extract(s.value, '$.player'))) AS seat
        FROM json_each(matches.seats) AS s ORDER BY s.key
    )
);
