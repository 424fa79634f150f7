-- Change stamps for the search index each server process keeps in memory (src/search/index). A process
-- re-reads the plugins whose row changed since it last looked. A change is stamped with the id of the
-- transaction that made it, not a clock or a sequence: the reader remembers the oldest transaction still
-- running when it looked and next time re-reads from there, so a transaction that commits late is read on a
-- later look instead of being missed.
ALTER TABLE plugins ADD COLUMN changed_by_xact xid8 NOT NULL DEFAULT '0';
CREATE INDEX plugins_changed_by_xact_idx ON plugins (changed_by_xact);

CREATE FUNCTION plugins_stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_by_xact := pg_current_xact_id();
  RETURN NEW;
END
$$;
CREATE TRIGGER plugins_stamp_change BEFORE INSERT OR UPDATE ON plugins
  FOR EACH ROW EXECUTE FUNCTION plugins_stamp_change();

-- What a search answer shows of a plugin but lives in another table stamps the plugin (tags, vendor names
-- and versions already touch the plugin row through the triggers of 0001).
CREATE FUNCTION plugin_rows_stamp_plugin() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plugins p SET changed_by_xact = pg_current_xact_id()
  WHERE p.id IN (SELECT DISTINCT plugin_id FROM changed_rows);
  RETURN NULL;
END
$$;
CREATE TRIGGER plugin_compatible_products_stamp_insert AFTER INSERT ON plugin_compatible_products
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
CREATE TRIGGER plugin_compatible_products_stamp_delete AFTER DELETE ON plugin_compatible_products
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
CREATE TRIGGER plugin_developers_stamp_insert AFTER INSERT ON plugin_developers
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
CREATE TRIGGER plugin_developers_stamp_delete AFTER DELETE ON plugin_developers
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();

CREATE FUNCTION vendors_stamp_plugins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plugins p SET changed_by_xact = pg_current_xact_id() WHERE p.vendor_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER vendors_stamp_url AFTER UPDATE OF url ON vendors
  FOR EACH ROW WHEN (OLD.url IS DISTINCT FROM NEW.url) EXECUTE FUNCTION vendors_stamp_plugins();

-- A plugin row that is deleted leaves its id here, stamped the same way, so the index drops it.
CREATE TABLE plugin_removals (
  plugin_id integer NOT NULL,
  removed_by_xact xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX plugin_removals_xact_idx ON plugin_removals (removed_by_xact);

CREATE FUNCTION plugins_record_removal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO plugin_removals (plugin_id) SELECT id FROM removed_rows;
  RETURN NULL;
END
$$;
CREATE TRIGGER plugins_record_removal AFTER DELETE ON plugins
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugins_record_removal();
