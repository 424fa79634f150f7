-- The scheduler of recurring jobs (src/admin/scheduler): one row per job (statistics roll-up, scheduled price
-- changes, verification queue, orphan-file sweep, token expiry clean-up, search re-index) and the history of
-- its runs. A node runs a job only while it holds the job's lease (lease_owner until lease_expires_at,
-- renewed while the job runs), so one node at a time runs it; a run whose node died keeps current_run_id set
-- after its lease expires, and the next node to look takes it up again (the run is marked interrupted).

CREATE TABLE scheduled_jobs (
  id text PRIMARY KEY CHECK (id ~ '^[a-z][a-z0-9-]{0,63}$'),
  paused boolean NOT NULL DEFAULT false,
  -- When the job is next due; null: never by itself (its interval is 0), only when run now.
  next_run_at timestamptz,
  lease_owner text,
  lease_expires_at timestamptz,
  -- The run in progress (or interrupted, once its lease has expired).
  current_run_id integer,
  last_run_id integer,
  paused_at timestamptz,
  paused_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL))
);

CREATE TABLE scheduled_job_runs (
  id serial PRIMARY KEY,
  job_id text NOT NULL REFERENCES scheduled_jobs (id) ON DELETE CASCADE,
  node text NOT NULL,
  -- schedule: it was due; manual: an administrator ran it now; retry: taken up after its node died.
  trigger text NOT NULL CHECK (trigger IN ('schedule', 'manual', 'retry')),
  attempt integer NOT NULL DEFAULT 1 CHECK (attempt >= 1),
  requested_by integer REFERENCES users (id) ON DELETE SET NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  outcome text NOT NULL DEFAULT 'running'
    CHECK (outcome IN ('running', 'succeeded', 'failed', 'interrupted')),
  summary text,
  error text,
  CHECK ((outcome = 'running') = (finished_at IS NULL))
);

CREATE INDEX scheduled_job_runs_job_idx ON scheduled_job_runs (job_id, id DESC);
