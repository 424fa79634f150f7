-- The search index's `communityPrograms` filter reads plugin_programs: a change of an item's programs stamps
-- the plugin row (as tags and compatible products do, migration 0003), so every index picks it up.
CREATE TRIGGER plugin_programs_stamp_insert AFTER INSERT ON plugin_programs
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
CREATE TRIGGER plugin_programs_stamp_update AFTER UPDATE ON plugin_programs
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
CREATE TRIGGER plugin_programs_stamp_delete AFTER DELETE ON plugin_programs
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION plugin_rows_stamp_plugin();
