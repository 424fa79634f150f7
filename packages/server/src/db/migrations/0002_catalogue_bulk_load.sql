-- Cheaper bulk loading of the catalogue (the demo catalogue and `mp seed` write millions of rows).

-- A daily counter belongs to a version, and the version to its plugin: the version's foreign key already
-- removes counters with their plugin. Checking plugin_id too doubled the cost of every counter row.
ALTER TABLE download_counts DROP CONSTRAINT download_counts_plugin_id_fkey;

-- A loader may insert a plugin's tags before the plugin itself (inside one transaction, with
-- SET CONSTRAINTS ... DEFERRED), so the plugin's search vector is computed once, with its tags.
ALTER TABLE plugin_tags ALTER CONSTRAINT plugin_tags_plugin_id_fkey DEFERRABLE INITIALLY IMMEDIATE;

-- A new version only touches its plugin when it really moves the update date.
CREATE OR REPLACE FUNCTION plugin_versions_touch_plugin() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plugins p SET last_updated_at = d.newest
  FROM (SELECT plugin_id, max(created_at) AS newest FROM new_rows WHERE NOT hidden GROUP BY plugin_id) d
  WHERE p.id = d.plugin_id AND p.last_updated_at < d.newest;
  RETURN NULL;
END
$$;
