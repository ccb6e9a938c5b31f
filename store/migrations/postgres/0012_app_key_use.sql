-- App keys an operator can list and revoke (`turnstile keys list|revoke`): when each was last used (recorded at most
-- once a minute per key and process), and when it was revoked (a revoked key is no app's any more; the row stays,
-- so its name and dates remain to be read). Numbered 0012: 0010 and 0011 are taken on other branches.
ALTER TABLE app_keys ADD COLUMN last_used_at timestamptz, ADD COLUMN revoked_at timestamptz;
