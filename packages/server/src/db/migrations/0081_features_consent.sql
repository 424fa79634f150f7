-- Feature flags and visitors' consent (src/admin/features, src/admin/consent).

-- A named flag: its type says whom it is on for, its value is of that type (true/false, a whole percentage,
-- or a list of user or vendor ids; see core's features). Usage counts are added by each process from its
-- own counters now and then (never a write per evaluation), since `counted_since` (the last change).
CREATE TABLE feature_flags (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9]+([.-][a-z0-9]+)*$' AND length(name) BETWEEN 2 AND 64),
  type text NOT NULL CHECK (type IN ('boolean', 'percentage', 'users', 'vendors')),
  description text NOT NULL DEFAULT '',
  value jsonb NOT NULL,
  evaluations bigint NOT NULL DEFAULT 0 CHECK (evaluations >= 0),
  evaluations_on bigint NOT NULL DEFAULT 0 CHECK (evaluations_on >= 0),
  counted_since timestamptz NOT NULL DEFAULT now(),
  last_evaluated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by integer REFERENCES users (id) ON DELETE SET NULL
);

-- A signed-in user's choice about optional cookies and analytics (a guest's lives in the browser's cookie).
CREATE TABLE user_consents (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  analytics boolean NOT NULL,
  decided_at timestamptz NOT NULL DEFAULT now()
);

-- A download or update check without consent (where the operator requires it, or declined) is counted with
-- no visitor hash: it counts as a download, not as a unique downloader.
ALTER TABLE insight_events ALTER COLUMN visitor DROP NOT NULL;
