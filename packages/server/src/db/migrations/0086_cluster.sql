-- Several server nodes on one database (scale-out).

-- The embedded identity service's keys, shared by every node so that a token or a sign-in session made on
-- one node is valid on all. One row; the first node to start writes it (from its DATA_DIR file when it has
-- one, so an existing installation keeps everyone signed in).
CREATE TABLE identity_keys (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  keys jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Catalogue changes wake every node at once: a statement that changes plugin rows notifies `mp_catalogue`
-- (delivered at commit, only if it commits). The notification carries nothing a node relies on: the node
-- then reads the changes from its transaction-id watermark (0003), so a notification missed while a node
-- was disconnected costs only time, never a change. Download counters set `mp.counter_only` for their
-- transaction and do not wake anyone: the counts are read with the next change or look.
CREATE FUNCTION notify_catalogue_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('mp.counter_only', true), '') <> 'on' THEN
    PERFORM pg_notify(TG_ARGV[0], pg_current_xact_id()::text);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER plugins_notify_change AFTER INSERT OR UPDATE OR DELETE ON plugins
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change('mp_catalogue');
-- Cache flushes and reloads asked on one node (0085) are heard by the others at once.
CREATE TRIGGER cache_events_notify AFTER INSERT ON cache_events
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change('mp_cache_events');
