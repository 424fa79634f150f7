-- The IDE feed (/plugins/list) answered from fragments rendered once per version (src/ide-feed): the middle of
-- each version's <idea-plugin> element, DEFLATE-compressed on its own, so a feed of thousands of items is put
-- together, and sent gzip-compressed, without rendering or compressing anything per request. A fragment is
-- valid while its source digest (of the rendered fields and the public URL) matches; servers render the
-- missing and stale ones as they follow catalogue changes, and any server may replace a row.
CREATE TABLE ide_feed_fragments (
  version_id integer PRIMARY KEY REFERENCES plugin_versions (id) ON DELETE CASCADE,
  source_digest text NOT NULL,
  -- Raw DEFLATE ending with a sync flush (byte-aligned, no final block).
  deflated bytea NOT NULL,
  plain_length integer NOT NULL CHECK (plain_length >= 0),
  -- CRC-32 of the uncompressed text, unsigned.
  crc bigint NOT NULL CHECK (crc >= 0 AND crc < 4294967296),
  rendered_at timestamptz NOT NULL DEFAULT now()
);
