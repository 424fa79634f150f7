-- Caches' administration (src/admin/caches): a flush or reload asked on one node is written here, and every
-- other node hears it with its CacheEventFollower, a CatalogueFollower over this table (the same snapshot
-- and transaction-id watermark, so a late commit is read by a later look instead of being missed).

CREATE TABLE cache_events (
  id bigserial PRIMARY KEY,
  action text NOT NULL CHECK (action IN ('flush', 'reload')),
  -- null: every cache.
  cache_name text,
  -- The node that asked: it has acted already, the others act when they read the row.
  origin text NOT NULL,
  requested_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by_xact xid8 NOT NULL DEFAULT pg_current_xact_id()
);

CREATE INDEX cache_events_xact_idx ON cache_events (created_by_xact);
