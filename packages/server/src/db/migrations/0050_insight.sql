-- Insight: every download and update check as an event (append-only, partitioned by month so that old
-- months are dropped whole), and the daily roll-ups that statistics read. No address is kept: `visitor` is
-- 63 bits of a hash of the address and client salted with a secret that changes every day.

CREATE TABLE insight_events (
  occurred_at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL CHECK (kind IN ('download', 'update-check')),
  plugin_id integer NOT NULL,
  version text NOT NULL DEFAULT '',
  channel text NOT NULL DEFAULT '',
  product_code text NOT NULL DEFAULT '',
  build text NOT NULL DEFAULT '',
  branch integer NOT NULL DEFAULT 0,
  from_ide boolean NOT NULL,
  country text NOT NULL DEFAULT '',
  visitor bigint NOT NULL
) PARTITION BY RANGE (occurred_at);

-- Holds only events of a month whose partition does not exist yet; creating the partition moves them.
CREATE TABLE insight_events_default PARTITION OF insight_events DEFAULT;

-- Events arrive in time order: a BRIN index finds a day's pages at almost no cost to inserts.
CREATE INDEX insight_events_time_idx ON insight_events USING brin (occurred_at);

-- Creates the partition of the month that holds `month_day` (if missing), moving any of its events out of
-- the default partition first. Safe to call from several nodes at once.
CREATE FUNCTION insight_events_partition(month_day date) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  first_day date := date_trunc('month', month_day)::date;
  next_day date := (date_trunc('month', month_day) + interval '1 month')::date;
  first_moment timestamptz := first_day::timestamp AT TIME ZONE 'UTC';
  next_moment timestamptz := next_day::timestamp AT TIME ZONE 'UTC';
  partition_name text := 'insight_events_' || to_char(first_day, 'YYYY_MM');
BEGIN
  PERFORM pg_advisory_xact_lock(7214530050);
  IF to_regclass(partition_name) IS NOT NULL THEN
    RETURN partition_name;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE insight_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', partition_name);
  EXECUTE format(
    'WITH moved AS (DELETE FROM insight_events_default WHERE occurred_at >= %L AND occurred_at < %L RETURNING *) '
    'INSERT INTO %I SELECT * FROM moved', first_moment, next_moment, partition_name);
  EXECUTE format('ALTER TABLE insight_events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
    partition_name, first_moment, next_moment);
  RETURN partition_name;
END $$;

SELECT insight_events_partition((now() AT TIME ZONE 'UTC')::date);
SELECT insight_events_partition(((now() AT TIME ZONE 'UTC') + interval '1 month')::date);

-- The secret of each day's visitor hash; a day's row is deleted once the day is rolled up for good, so
-- that no hash can be recomputed from an address afterwards.
CREATE TABLE insight_salts (
  day date PRIMARY KEY,
  salt bytea NOT NULL
);

-- One row per item, day and combination of dimension values: what filtered statistics read. Its unique
-- downloaders are distinct within the row; a sum over rows counts a visitor once per combination.
CREATE TABLE insight_daily (
  plugin_id integer NOT NULL,
  day date NOT NULL,
  version text NOT NULL,
  channel text NOT NULL,
  product_code text NOT NULL,
  branch integer NOT NULL,
  country text NOT NULL,
  downloads integer NOT NULL,
  downloads_unique integer NOT NULL,
  installs integer NOT NULL,
  update_checks integer NOT NULL,
  PRIMARY KEY (plugin_id, day, version, channel, product_code, branch, country)
);
CREATE INDEX insight_daily_day_idx ON insight_daily (day);

-- One row per item, day and value of a single dimension, plus dimension 'total' (value '') for the day
-- as a whole: what unfiltered statistics and charts read, with exact daily unique downloaders.
CREATE TABLE insight_daily_by_dimension (
  plugin_id integer NOT NULL,
  dimension text NOT NULL CHECK (dimension IN ('total', 'version', 'product', 'branch', 'country', 'channel')),
  day date NOT NULL,
  value text NOT NULL,
  downloads integer NOT NULL,
  downloads_unique integer NOT NULL,
  installs integer NOT NULL,
  update_checks integer NOT NULL,
  PRIMARY KEY (plugin_id, dimension, day, value)
);
CREATE INDEX insight_daily_by_dimension_day_idx ON insight_daily_by_dimension (day);

-- How far the roll-ups are: every event that occurred before `rolled_up_until` is counted in them.
CREATE TABLE insight_rollup_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  rolled_up_until timestamptz NOT NULL
);
INSERT INTO insight_rollup_state (rolled_up_until) VALUES (date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC');
