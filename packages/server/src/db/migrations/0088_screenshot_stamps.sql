-- A theme's card image is its first screenshot (the summaries of lists and the search index carry it): a
-- change to the screenshots stamps the plugin row as other tables' changes do (0003), so each process's
-- index re-reads the plugin.

CREATE TRIGGER plugin_screenshots_stamp_insert AFTER INSERT ON plugin_screenshots
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
CREATE TRIGGER plugin_screenshots_stamp_update AFTER UPDATE ON plugin_screenshots
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
CREATE TRIGGER plugin_screenshots_stamp_delete AFTER DELETE ON plugin_screenshots
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
