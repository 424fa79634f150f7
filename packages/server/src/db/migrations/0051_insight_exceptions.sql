-- The exception analyzer: error reports IDEs send for a plugin, grouped by the fingerprint of the normalised
-- stack trace (SHA-256 hex, core's normaliseStackTrace). Every report is counted (per day and per version,
-- IDE build, OS and Java); only the newest 50 of a group are kept whole, plus the newest 200 with a user's
-- comment. No address, login, password, e-mail or attachment content is kept; an installation is a salted
-- hash of the IDE's host id (salted per plugin with the secret in exception_salt).

CREATE TABLE exception_groups (
  id serial PRIMARY KEY,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  fingerprint text NOT NULL,
  normalised_trace text NOT NULL,
  plugin_package text NOT NULL DEFAULT '',
  exception_class text NOT NULL,
  message text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'investigating', 'fixed', 'ignored')),
  fixed_in_version text,
  status_note text NOT NULL DEFAULT '',
  status_changed_at timestamptz,
  status_changed_by integer REFERENCES users (id) ON DELETE SET NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  report_count integer NOT NULL DEFAULT 0 CHECK (report_count >= 0),
  installation_count integer NOT NULL DEFAULT 0 CHECK (installation_count >= 0),
  UNIQUE (plugin_id, fingerprint),
  CHECK ((status = 'fixed') = (fixed_in_version IS NOT NULL))
);
CREATE INDEX exception_groups_plugin_seen_idx ON exception_groups (plugin_id, last_seen_at DESC);

-- Reports kept whole (see above for which); `id` is the number the IDE shows the user.
CREATE TABLE exception_reports (
  id bigserial PRIMARY KEY,
  group_id integer NOT NULL REFERENCES exception_groups (id) ON DELETE CASCADE,
  received_at timestamptz NOT NULL DEFAULT now(),
  plugin_version text NOT NULL DEFAULT '',
  build text NOT NULL DEFAULT '',
  product_name text NOT NULL DEFAULT '',
  os text NOT NULL DEFAULT '',
  java text NOT NULL DEFAULT '',
  message text NOT NULL DEFAULT '',
  stack_trace text NOT NULL,
  comment text NOT NULL DEFAULT '',
  last_action text NOT NULL DEFAULT '',
  attachment_names text[] NOT NULL DEFAULT '{}',
  automatic boolean NOT NULL DEFAULT false
);
CREATE INDEX exception_reports_group_idx ON exception_reports (group_id, id DESC);

-- Counts per group, day and value of one dimension; dimension 'total' (value '') counts every report.
CREATE TABLE exception_daily (
  group_id integer NOT NULL REFERENCES exception_groups (id) ON DELETE CASCADE,
  dimension text NOT NULL CHECK (dimension IN ('total', 'version', 'build', 'os', 'java')),
  day date NOT NULL,
  value text NOT NULL,
  reports integer NOT NULL CHECK (reports > 0),
  PRIMARY KEY (group_id, dimension, day, value)
);

-- The installations that reported a group, by salted hash, to count them (up to 10,000 per group).
CREATE TABLE exception_installations (
  group_id integer NOT NULL REFERENCES exception_groups (id) ON DELETE CASCADE,
  installation text NOT NULL,
  PRIMARY KEY (group_id, installation)
);

-- The secret the installation hashes are salted with: made once, by the first server that needs it.
CREATE TABLE exception_salt (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  salt bytea NOT NULL
);
