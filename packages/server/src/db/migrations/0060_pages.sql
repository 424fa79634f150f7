-- Custom pages and webhelp (src/pages): pages an item's people write in Markdown (the source in
-- original_content, the sanitised HTML rendered from it in content), nested by parent_id and ordered by
-- position among siblings; images uploaded into a page; and the files of an uploaded webhelp zip, served under
-- /webhelp/{plugin_id}/{url}/. Files live in the content-addressed store, by hash.

CREATE TABLE custom_pages (
  id serial PRIMARY KEY,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  -- A deleted parent's children are moved up by the application; SET NULL only guards the database.
  parent_id integer REFERENCES custom_pages (id) ON DELETE SET NULL,
  url text NOT NULL CHECK (url ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(url) <= 64),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  type text NOT NULL DEFAULT 'custom-page' CHECK (type IN ('custom-page', 'webhelp')),
  status text NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'PUBLISH', 'WEBHELP')),
  original_content text NOT NULL DEFAULT '',
  content text NOT NULL DEFAULT '',
  generate_toc boolean NOT NULL DEFAULT false,
  position integer NOT NULL DEFAULT 0 CHECK (position >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  UNIQUE (plugin_id, url),
  CHECK (parent_id IS NULL OR parent_id <> id),
  -- A Markdown page is published as PUBLISH, a webhelp as WEBHELP.
  CHECK (status = 'DRAFT' OR (type = 'custom-page') = (status = 'PUBLISH'))
);
CREATE INDEX custom_pages_plugin_idx ON custom_pages (plugin_id, parent_id, position);

CREATE TABLE custom_page_images (
  id serial PRIMARY KEY,
  page_id integer NOT NULL REFERENCES custom_pages (id) ON DELETE CASCADE,
  name text NOT NULL,
  file_hash text NOT NULL,
  content_type text NOT NULL,
  size integer NOT NULL CHECK (size >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX custom_page_images_page_idx ON custom_page_images (page_id);

-- The files of a webhelp, by their path inside the zip (below its one top-level folder, when it has one).
CREATE TABLE custom_page_files (
  page_id integer NOT NULL REFERENCES custom_pages (id) ON DELETE CASCADE,
  path text NOT NULL,
  file_hash text NOT NULL,
  content_type text NOT NULL,
  size integer NOT NULL CHECK (size >= 0),
  PRIMARY KEY (page_id, path)
);
