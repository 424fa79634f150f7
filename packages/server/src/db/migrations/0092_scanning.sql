-- Scanning (src/trust/scanning): every uploaded version is scanned by a job (known-malware hashes, secrets,
-- native binaries and scripts out of place, look-alike rules, optionally ClamAV) before it is offered to
-- visitors. A version whose scan found something serious is quarantined until an administrator releases or
-- rejects it. Jobs are a plain table claimed with FOR UPDATE SKIP LOCKED under a lease, as verification_jobs.

-- Where a version stands with scanning. 'unscanned': written before scanning existed (or by a loader that
-- writes rows directly, the demo catalogue); offered as before. 'pending': waiting for its scan; 'passed':
-- nothing that warrants quarantine was found; 'quarantined': held until an administrator decides;
-- 'released': an administrator let it through; 'rejected': an administrator refused it for good.
ALTER TABLE plugin_versions ADD COLUMN scan_state text NOT NULL DEFAULT 'unscanned'
  CHECK (scan_state IN ('unscanned', 'pending', 'passed', 'quarantined', 'released', 'rejected'));
CREATE INDEX plugin_versions_scan_held_idx ON plugin_versions (plugin_id, id)
  WHERE scan_state IN ('pending', 'quarantined', 'rejected');

-- The newest offered version per channel: a version held by its scan is not offered. (SELECT * takes the
-- new column too, appended, as CREATE OR REPLACE allows.)
CREATE OR REPLACE VIEW plugin_latest_versions AS
  SELECT DISTINCT ON (plugin_id, channel) *
  FROM plugin_versions
  WHERE approval_state = 'approved' AND NOT hidden AND scan_state IN ('unscanned', 'passed', 'released')
  ORDER BY plugin_id, channel, created_at DESC, id DESC;

-- A plugin all of whose versions are held by their scans (a new item whose first version is quarantined)
-- is not listed at all: kept by the triggers below, read by the generated `listed`, so every listing,
-- search and feed that asks `listed` leaves it out.
ALTER TABLE plugins ADD COLUMN scan_held boolean NOT NULL DEFAULT false;
-- PostgreSQL before 17 cannot change a generated column's expression: drop it (and the indexes on it) and
-- add it again, as 0082 did.
ALTER TABLE plugins DROP COLUMN listed;
ALTER TABLE plugins ADD COLUMN listed boolean GENERATED ALWAYS AS (
  lifecycle_state = 'published' AND approved AND block_state IN ('none', 'partial') AND NOT hidden
  AND NOT scan_held
) STORED;
CREATE INDEX plugins_listed_downloads_idx ON plugins (family, downloads DESC, id DESC) WHERE listed;
CREATE INDEX plugins_listed_updated_idx ON plugins (family, last_updated_at DESC, id DESC) WHERE listed;
CREATE INDEX plugins_listed_published_idx ON plugins (family, published_at DESC, id DESC) WHERE listed;
CREATE INDEX plugins_listed_name_idx ON plugins (family, lower(name), id) WHERE listed;
CREATE INDEX plugins_listed_rating_idx ON plugins (family, rating_mean DESC, rating_count DESC, id DESC)
  WHERE listed;

-- Works scan_held out again for the given plugins. It always writes the row, so the plugin's change stamp
-- (0003) moves and every node's search index and IDE feed read the version's new state.
CREATE FUNCTION plugins_refresh_scan_held(plugin_ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE plugins p SET scan_held =
      EXISTS (SELECT 1 FROM plugin_versions v WHERE v.plugin_id = p.id
        AND v.scan_state IN ('pending', 'quarantined', 'rejected'))
      AND NOT EXISTS (SELECT 1 FROM plugin_versions v WHERE v.plugin_id = p.id
        AND v.scan_state IN ('unscanned', 'passed', 'released'))
  WHERE p.id = ANY (plugin_ids);
$$;

CREATE FUNCTION plugin_versions_scan_state_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM plugins_refresh_scan_held(ARRAY[NEW.plugin_id]);
  RETURN NULL;
END
$$;
-- Row by row, only when the state really changes: download counts update plugin_versions all the time.
CREATE TRIGGER plugin_versions_scan_state_changed AFTER UPDATE OF scan_state ON plugin_versions
  FOR EACH ROW WHEN (OLD.scan_state IS DISTINCT FROM NEW.scan_state)
  EXECUTE FUNCTION plugin_versions_scan_state_changed();

-- A deleted version may leave only held ones behind (or none).
CREATE FUNCTION plugin_versions_scan_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM plugins_refresh_scan_held(ARRAY(
    SELECT DISTINCT o.plugin_id FROM removed_rows o
    WHERE o.scan_state IN ('pending', 'quarantined', 'rejected')
       OR EXISTS (SELECT 1 FROM plugin_versions v WHERE v.plugin_id = o.plugin_id
         AND v.scan_state IN ('pending', 'quarantined', 'rejected'))));
  RETURN NULL;
END
$$;
CREATE TRIGGER plugin_versions_scan_removed AFTER DELETE ON plugin_versions
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_versions_scan_removed();

CREATE TABLE scan_jobs (
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
CREATE INDEX scan_jobs_claim_idx ON scan_jobs (available_at, id) WHERE state IN ('queued', 'running');
CREATE INDEX scan_jobs_version_idx ON scan_jobs (version_id, id DESC);

-- One finished scan of one version: what was found, and the administrator's decision on a quarantine.
CREATE TABLE version_scans (
  id serial PRIMARY KEY,
  job_id integer REFERENCES scan_jobs (id) ON DELETE SET NULL,
  version_id integer NOT NULL REFERENCES plugin_versions (id) ON DELETE CASCADE,
  verdict text NOT NULL CHECK (verdict IN ('passed', 'quarantined')),
  -- 'built-in' and, when the operator runs it, 'clamav <version line>'.
  engines text[] NOT NULL,
  archive_sha256 text NOT NULL,
  entries_scanned integer NOT NULL CHECK (entries_scanned >= 0),
  -- [{kind, severity, path, message}], most severe first.
  findings jsonb NOT NULL DEFAULT '[]',
  -- The unresolved admin note that put the findings in the approval queue's flags.
  flag_note_id integer REFERENCES admin_notes (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  decision text CHECK (decision IN ('release', 'reject')),
  decided_by integer REFERENCES users (id) ON DELETE SET NULL,
  decided_at timestamptz,
  decision_reason text,
  CHECK ((decision IS NULL) = (decided_at IS NULL))
);
CREATE INDEX version_scans_version_idx ON version_scans (version_id, id DESC);
