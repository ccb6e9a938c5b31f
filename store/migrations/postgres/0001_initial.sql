-- Matches: one row per match, updated in the same transaction as each append.
CREATE TABLE matches (
    id              text PRIMARY KEY,
    game            text NOT NULL,
    rules_version   text NOT NULL,
    seats           jsonb NOT NULL,
    options         jsonb NOT NULL,
    seed            text NOT NULL,
    seed_commitment text NOT NULL,
    status          text NOT NULL CHECK (status IN ('active', 'finished')),
    version         integer NOT NULL CHECK (version >= 0),
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    head_hash       text NOT NULL
);
-- list_matches pages newest first, optionally per game or status; player filter is jsonb containment.
CREATE INDEX matches_created_idx ON matches (created_at DESC, id DESC);
CREATE INDEX matches_game_created_idx ON matches (game, created_at DESC, id DESC);
CREATE INDEX matches_status_created_idx ON matches (status, created_at DESC, id DESC);
CREATE INDEX matches_seats_idx ON matches USING gin (seats jsonb_path_ops);

-- Events: the global log. position is the primary key (read_all); (match_id, version) is unique (read_match).
CREATE TABLE events (
    position    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    match_id    text NOT NULL REFERENCES matches (id),
    version     integer NOT NULL CHECK (version >= 1),
    type        text NOT NULL,
    payload     jsonb NOT NULL,
    seat        integer,
    command     jsonb,
    command_id  text,
    recorded_at timestamptz NOT NULL,
    prev_hash   text NOT NULL,
    hash        text NOT NULL,
    CONSTRAINT events_match_version_key UNIQUE (match_id, version)
);

-- One row per command id: the primary key is the (match_id, command_id) uniqueness that makes
-- retries idempotent (an append of several events shares one command id, so it cannot live on events).
CREATE TABLE commands (
    match_id     text NOT NULL REFERENCES matches (id),
    command_id   text NOT NULL,
    first_version integer NOT NULL,
    last_version  integer NOT NULL,
    PRIMARY KEY (match_id, command_id)
);

CREATE TABLE app_keys (
    key_hash   text PRIMARY KEY,
    name       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Events are facts: never changed, never deleted (TRUNCATE too).
CREATE FUNCTION turnstile_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'turnstile: % on % is not allowed, events are immutable', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER events_immutable BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION turnstile_refuse_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION turnstile_refuse_change();
CREATE TRIGGER commands_immutable BEFORE UPDATE OR DELETE ON commands
    FOR EACH ROW EXECUTE FUNCTION turnstile_refuse_change();
