-- Supply-chain trust (src/trust): id prefixes (namespaces) that vendors claim and administrators approve or
-- grant. A new plugin whose id starts with an approved prefix is refused to everyone but the people of the
-- owning vendor; the operator's reserved prefixes (com.jetbrains. and the like) can only be granted.
-- Plugins that existed before a prefix was approved are not touched.

CREATE TABLE trust_namespaces (
  id serial PRIMARY KEY,
  -- Lower case, at least two segments, ending with a dot: 'com.acme.'.
  prefix text NOT NULL CHECK (prefix ~ '^[a-z0-9_-]+(\.[a-z0-9_-]+)+\.$' AND length(prefix) <= 200),
  vendor_id integer NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'refused', 'revoked')),
  -- What the vendor publishes in a DNS TXT record to prove the domain is theirs; an administrator checks it.
  dns_token text NOT NULL,
  requested_by integer REFERENCES users (id) ON DELETE SET NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  decided_by integer REFERENCES users (id) ON DELETE SET NULL,
  decided_at timestamptz,
  decision_reason text
);

-- One owner per prefix at a time; claims waiting for a decision may compete.
CREATE UNIQUE INDEX trust_namespaces_approved_prefix_idx ON trust_namespaces (prefix) WHERE state = 'approved';
CREATE INDEX trust_namespaces_state_idx ON trust_namespaces (state, requested_at, id);
CREATE INDEX trust_namespaces_vendor_idx ON trust_namespaces (vendor_id);
