-- App keys an operator can list and revoke (see postgres/0012_app_key_use.sql), times in the store's ISO form.
-- Numbered 0011: 0009 and 0010 are taken on other branches.
ALTER TABLE app_keys ADD COLUMN last_used_at TEXT;
ALTER TABLE app_keys ADD COLUMN revoked_at TEXT;
