-- Featured items per product family (src/admin/featured): the administrators' picks the site's home page
-- shows, in their order. Separate from featured_plugins, the per-IDE-product staff picks of the IDE's own
-- marketplace window (is_featured_search).

CREATE TABLE featured_items (
  family text NOT NULL CHECK (family IN ('intellij', 'teamcity', 'hub', 'fleet', 'dotnet', 'edu', 'space',
    'toolbox', 'youtrack', 'teamcity_recipes')),
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 0),
  added_by integer REFERENCES users (id) ON DELETE SET NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (family, plugin_id),
  UNIQUE (family, position)
);
