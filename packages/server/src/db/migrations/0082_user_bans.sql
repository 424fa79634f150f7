-- Users and moderation of the admin area (src/admin/users, src/admin/moderation).

-- A ban says why, when and by whom (null: the `mp users ban` command, or an account since removed). A banned
-- user still signs in and reads; every write is refused (src/auth/authorization.ts).
ALTER TABLE users ADD COLUMN ban_reason text;
ALTER TABLE users ADD COLUMN banned_at timestamptz;
ALTER TABLE users ADD COLUMN banned_by integer REFERENCES users (id) ON DELETE SET NULL;
UPDATE users SET ban_reason = 'Banned before reasons were recorded.', banned_at = now() WHERE banned;
-- The administrators' list searches login, name and email by substring.
CREATE INDEX users_login_trgm_idx ON users USING gin (login gin_trgm_ops);
CREATE INDEX users_name_trgm_idx ON users USING gin (name gin_trgm_ops);
CREATE INDEX users_created_idx ON users (created_at DESC, id DESC);

-- Partial block: an administrator blocks chosen versions ('blocked', offered to nobody but administrators,
-- back to 'approved' on unblock); the plugin's block_state 'partial' says some are blocked, and the plugin
-- itself stays listed. Until now 'partial' hid the whole plugin: such plugins become 'blocked', so nothing
-- hidden before becomes visible.
ALTER TABLE plugin_versions DROP CONSTRAINT plugin_versions_approval_state_check;
ALTER TABLE plugin_versions ADD CONSTRAINT plugin_versions_approval_state_check
  CHECK (approval_state IN ('pending', 'approved', 'rejected', 'blocked'));
UPDATE plugins SET block_state = 'blocked' WHERE block_state = 'partial';
-- PostgreSQL before 17 cannot change a generated column's expression: drop it (and the indexes on it) and
-- add it again.
ALTER TABLE plugins DROP COLUMN listed;
ALTER TABLE plugins ADD COLUMN listed boolean GENERATED ALWAYS AS (
  lifecycle_state = 'published' AND approved AND block_state IN ('none', 'partial') AND NOT hidden
) STORED;
CREATE INDEX plugins_listed_downloads_idx ON plugins (family, downloads DESC, id DESC) WHERE listed;
CREATE INDEX plugins_listed_updated_idx ON plugins (family, last_updated_at DESC, id DESC) WHERE listed;
CREATE INDEX plugins_listed_published_idx ON plugins (family, published_at DESC, id DESC) WHERE listed;
CREATE INDEX plugins_listed_name_idx ON plugins (family, lower(name), id) WHERE listed;
CREATE INDEX plugins_listed_rating_idx ON plugins (family, rating_mean DESC, rating_count DESC, id DESC)
  WHERE listed;

-- Visitors' reports: of a plugin, or of one of its reviews; an administrator resolves each with a note.
ALTER TABLE plugin_reports ADD COLUMN review_id integer REFERENCES reviews (id) ON DELETE CASCADE;
ALTER TABLE plugin_reports ADD COLUMN resolved_at timestamptz;
ALTER TABLE plugin_reports ADD COLUMN resolved_by integer REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE plugin_reports ADD COLUMN resolution text;
CREATE INDEX plugin_reports_open_idx ON plugin_reports (created_at DESC, id DESC) WHERE resolved_at IS NULL;

-- The audit screen lists every entry newest first, filtered by actor or action.
CREATE INDEX plugin_audit_log_created_idx ON plugin_audit_log (created_at DESC, id DESC);
CREATE INDEX plugin_audit_log_actor_idx ON plugin_audit_log (actor_id, created_at DESC, id DESC);
CREATE INDEX plugin_audit_log_action_idx ON plugin_audit_log (action, created_at DESC, id DESC);
