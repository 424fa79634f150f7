-- Publishing and moderation: claims that keep a stored file safe from the orphan sweep until its row is
-- committed, the audit log of every management and moderation action, admin notes, visitors' reports and
-- the order developers give their own plugins.

-- An upload claims its file's hash before it writes the file into the store and drops the claim in the
-- transaction that commits the row referring to it. The sweep removes a stored file only when no row refers
-- to it and no claim younger than the grace period names it, under the same advisory lock as the claim.
CREATE TABLE file_claims (
  id serial PRIMARY KEY,
  file_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX file_claims_file_hash_idx ON file_claims (file_hash);

CREATE TABLE plugin_audit_log (
  id serial PRIMARY KEY,
  -- Kept when the plugin row goes: the log outlives what it describes.
  plugin_id integer REFERENCES plugins (id) ON DELETE SET NULL,
  actor_id integer REFERENCES users (id) ON DELETE SET NULL,
  action text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX plugin_audit_log_plugin_idx ON plugin_audit_log (plugin_id, created_at DESC, id DESC);

CREATE TABLE admin_notes (
  id serial PRIMARY KEY,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  author_id integer REFERENCES users (id) ON DELETE SET NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  resolved_by integer REFERENCES users (id) ON DELETE SET NULL
);

CREATE INDEX admin_notes_plugin_idx ON admin_notes (plugin_id, created_at DESC, id DESC);

CREATE TABLE plugin_reports (
  id serial PRIMARY KEY,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  -- Null for a visitor who is not signed in.
  reporter_id integer REFERENCES users (id) ON DELETE SET NULL,
  reason text NOT NULL,
  message text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX plugin_reports_created_idx ON plugin_reports (created_at DESC, id DESC);
CREATE INDEX plugin_reports_plugin_idx ON plugin_reports (plugin_id, created_at DESC, id DESC);

CREATE TABLE plugin_owner_order (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (user_id, plugin_id)
);
