-- The search index's `isFeaturedSearch` filter reads featured_plugins (the per-IDE-product staff picks): a
-- change of the picks stamps the plugin rows (as tags, compatible products and programs do, migrations 0003
-- and 0041), so every process's index re-reads the plugins that joined or left a list.
CREATE TRIGGER featured_plugins_stamp_insert AFTER INSERT ON featured_plugins
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
CREATE TRIGGER featured_plugins_stamp_update AFTER UPDATE ON featured_plugins
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
CREATE TRIGGER featured_plugins_stamp_delete AFTER DELETE ON featured_plugins
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
