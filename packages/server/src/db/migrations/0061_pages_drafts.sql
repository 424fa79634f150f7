-- Drafts of published custom pages (src/pages): changes to a published page are saved beside the published
-- version, which visitors keep seeing until the draft is published (it replaces the page) or discarded.
-- A draft is whole: either every draft_* column is set or none is (draft_updated_at says which).
ALTER TABLE custom_pages
  ADD COLUMN draft_name text CHECK (draft_name IS NULL OR length(draft_name) BETWEEN 1 AND 100),
  ADD COLUMN draft_url text CHECK (draft_url IS NULL OR (draft_url ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(draft_url) <= 64)),
  ADD COLUMN draft_original_content text,
  ADD COLUMN draft_content text,
  ADD COLUMN draft_generate_toc boolean,
  ADD COLUMN draft_updated_at timestamptz,
  ADD CONSTRAINT custom_pages_draft_whole CHECK (
    (draft_updated_at IS NULL) = (draft_name IS NULL)
    AND (draft_updated_at IS NULL) = (draft_url IS NULL)
    AND (draft_updated_at IS NULL) = (draft_original_content IS NULL)
    AND (draft_updated_at IS NULL) = (draft_content IS NULL)
    AND (draft_updated_at IS NULL) = (draft_generate_toc IS NULL)
  );

-- A new zip of a published webhelp is kept as draft files until the draft is published.
ALTER TABLE custom_page_files ADD COLUMN draft boolean NOT NULL DEFAULT false;
ALTER TABLE custom_page_files DROP CONSTRAINT custom_page_files_pkey;
ALTER TABLE custom_page_files ADD PRIMARY KEY (page_id, draft, path);

-- Previews of a webhelp not yet published (or of its draft) for the item's people: a browser navigates to
-- /webhelp-preview/{token}/ without credentials, so the token is the credential; only its SHA-256 is kept,
-- it expires, and every request checks again that its user may still manage the item.
CREATE TABLE custom_page_previews (
  token_hash text PRIMARY KEY,
  page_id integer NOT NULL REFERENCES custom_pages (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX custom_page_previews_expiry_idx ON custom_page_previews (expires_at);
