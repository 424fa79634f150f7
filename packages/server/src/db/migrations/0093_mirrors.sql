-- Mirroring (src/trust/mirror): other marketplaces that speak the IDE's feed (the vendor's public one, another
-- instance of this server) whose plugins this one copies on a schedule, and what came from where. Archives
-- are stored byte for byte as the upstream serves them; items and versions remember their origin.

CREATE TABLE mirror_upstreams (
  id serial PRIMARY KEY,
  -- The marketplace's address without a trailing slash: the feed is <base_url>/plugins/list/?build=...
  base_url text NOT NULL UNIQUE CHECK (base_url ~ '^https?://' AND length(base_url) <= 2000),
  -- The plugin ids (plugin.xml <id>) to mirror; empty: every plugin the feed offers.
  plugin_ids text[] NOT NULL DEFAULT '{}',
  -- The IDE builds the feed is asked for (it answers the newest compatible version of each plugin per build).
  builds text[] NOT NULL CHECK (cardinality(builds) BETWEEN 1 AND 20),
  interval_seconds integer NOT NULL CHECK (interval_seconds BETWEEN 60 AND 2592000),
  enabled boolean NOT NULL DEFAULT true,
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The sync job takes every enabled upstream whose time has come; a failed sync leaves it due.
  next_sync_at timestamptz NOT NULL DEFAULT now(),
  last_sync_at timestamptz,
  last_outcome text CHECK (last_outcome IN ('succeeded', 'failed')),
  last_summary text,
  last_error text
);

-- Every sync of an upstream (the newest 50 of each are kept): what was imported, skipped and why it failed.
CREATE TABLE mirror_sync_runs (
  id serial PRIMARY KEY,
  upstream_id integer NOT NULL REFERENCES mirror_upstreams (id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  outcome text NOT NULL DEFAULT 'running' CHECK (outcome IN ('running', 'succeeded', 'failed')),
  imported integer NOT NULL DEFAULT 0,
  present integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  -- Sentences for the administrator: each failure, and each plugin left alone (e.g. a local item of that id).
  problems text[] NOT NULL DEFAULT '{}',
  notes text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX mirror_sync_runs_upstream_idx ON mirror_sync_runs (upstream_id, id DESC);

-- Items that came from another marketplace: by a configured upstream's sync, or by `mp mirror import`.
CREATE TABLE mirrored_plugins (
  plugin_id integer PRIMARY KEY REFERENCES plugins (id) ON DELETE CASCADE,
  -- The upstream that keeps it current; null once that upstream is removed, or for an imported export.
  upstream_id integer REFERENCES mirror_upstreams (id) ON DELETE SET NULL,
  -- The marketplace it came from (its base URL), shown as "Mirrored from <host>".
  mirrored_from text NOT NULL,
  -- Where the newest imported version was fetched (its download URL there).
  original_url text NOT NULL,
  first_imported_at timestamptz NOT NULL DEFAULT now(),
  last_imported_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mirrored_plugins_upstream_idx ON mirrored_plugins (upstream_id);

CREATE TABLE mirrored_versions (
  version_id integer PRIMARY KEY REFERENCES plugin_versions (id) ON DELETE CASCADE,
  upstream_id integer REFERENCES mirror_upstreams (id) ON DELETE SET NULL,
  mirrored_from text NOT NULL,
  original_url text NOT NULL,
  via text NOT NULL CHECK (via IN ('sync', 'import')),
  imported_at timestamptz NOT NULL DEFAULT now()
);
