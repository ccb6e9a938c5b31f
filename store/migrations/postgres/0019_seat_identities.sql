-- `GET /v1/matches?player=` finds a player whatever the case of the handle, as statistics, ratings and player pages
-- do (domain/handles.py: "Ada" and "ada" are one player). Each seat of the `seats` column now also holds its player's
-- identity (written by the store: store/sql.py `seats_param`), found by `seats @> '[{"identity": ...}]'` through the
-- GIN index. Rows written before: their identity here is NFKC, lower-cased, NFKC again, which is the service's
-- case-fold but for a few letters (lower() keeps "ß" where the fold writes "ss"). Numbered 0019: 0018 is another
-- branch's.
UPDATE matches SET seats = (
    SELECT coalesce(jsonb_agg(seat || jsonb_build_object(
               'identity', normalize(lower(normalize(seat->>'player', NFKC)), NFKC)) ORDER BY place), '[]'::jsonb)
    FROM jsonb_array_elements(seats) WITH ORDINALITY AS s(seat, place)
);
