-- Verification (src/verification): every uploaded version is checked in a background job against the IDE
-- builds it claims. Jobs are a plain table claimed with FOR UPDATE SKIP LOCKED under a lease, so several
-- nodes can work the queue and a job whose worker died is taken up again once its lease has expired.

CREATE TABLE verification_jobs (
  id serial PRIMARY KEY,
  version_id integer NOT NULL REFERENCES plugin_versions (id) ON DELETE CASCADE,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts integer NOT NULL DEFAULT 3 CHECK (max_attempts >= 1),
  -- A queued job is not taken before this (retries back off); a running one belongs to lease_owner until
  -- lease_expires_at, after which any worker may take it up again.
  available_at timestamptz NOT NULL DEFAULT now(),
  lease_owner text,
  lease_expires_at timestamptz,
  last_error text,
  requested_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  CHECK ((state = 'running') = (lease_expires_at IS NOT NULL))
);

CREATE INDEX verification_jobs_claim_idx ON verification_jobs (available_at, id)
  WHERE state IN ('queued', 'running');
CREATE INDEX verification_jobs_version_idx ON verification_jobs (version_id, id DESC);
CREATE INDEX verification_jobs_created_idx ON verification_jobs (created_at DESC, id DESC);

-- One finished run of the checks over one version. A discarded verification is kept but is no longer the
-- version's result.
CREATE TABLE verifications (
  id serial PRIMARY KEY,
  job_id integer REFERENCES verification_jobs (id) ON DELETE SET NULL,
  version_id integer NOT NULL REFERENCES plugin_versions (id) ON DELETE CASCADE,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  types text[] NOT NULL,
  verifier_version text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  discarded_at timestamptz,
  discarded_by integer REFERENCES users (id) ON DELETE SET NULL
);

CREATE INDEX verifications_version_idx ON verifications (version_id, id DESC);
CREATE INDEX verifications_plugin_idx ON verifications (plugin_id, id DESC);

-- The product builds a verification checked the version against, oldest first (position).
CREATE TABLE verification_targets (
  verification_id integer NOT NULL REFERENCES verifications (id) ON DELETE CASCADE,
  position integer NOT NULL,
  product_build text NOT NULL,
  product_name text NOT NULL,
  branch integer NOT NULL,
  release text NOT NULL,
  java_level integer NOT NULL,
  PRIMARY KEY (verification_id, position)
);

-- What the checks found. product_builds empty: the finding concerns every build checked.
CREATE TABLE verification_findings (
  id serial PRIMARY KEY,
  verification_id integer NOT NULL REFERENCES verifications (id) ON DELETE CASCADE,
  type text NOT NULL,
  kind text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('problem', 'warning')),
  message text NOT NULL,
  fingerprint text NOT NULL,
  product_builds text[] NOT NULL DEFAULT '{}'
);

CREATE INDEX verification_findings_verification_idx ON verification_findings (verification_id, id);

-- Findings marked false positives, by fingerprint: for one plugin (by its people), or for every plugin
-- (plugin_id null, by administrators).
CREATE TABLE verification_false_positives (
  id serial PRIMARY KEY,
  plugin_id integer REFERENCES plugins (id) ON DELETE CASCADE,
  type text NOT NULL,
  kind text NOT NULL,
  fingerprint text NOT NULL,
  message text NOT NULL,
  reason text NOT NULL DEFAULT '',
  marked_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE NULLS NOT DISTINCT (plugin_id, fingerprint)
);

CREATE INDEX verification_false_positives_fingerprint_idx ON verification_false_positives (fingerprint);
