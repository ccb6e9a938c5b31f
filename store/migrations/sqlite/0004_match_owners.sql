-- Apps own their matches: the app (by name) whose key created a match, and who may see it. `public` matches are
-- listed and readable by anyone, `unlisted` ones readable by id, `private` ones only by the owning app and the
-- match's seat tokens. Matches created before this migration have no owner and stay public.
ALTER TABLE matches ADD COLUMN owner TEXT;
ALTER TABLE matches ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public'
    CHECK (visibility IN ('public', 'unlisted', 'private'));
CREATE INDEX matches_owner_created_idx ON matches (owner, created_at DESC, id DESC);
CREATE INDEX matches_visibility_created_idx ON matches (visibility, created_at DESC, id DESC);
