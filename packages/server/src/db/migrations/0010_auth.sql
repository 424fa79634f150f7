-- Sign-in: permanent API tokens, links from external identity services to users, and the embedded
-- OpenID Connect provider's short-lived records (sessions, codes, refresh tokens, grants).

CREATE TABLE api_tokens (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- sha256 of the whole token in hex: tokens carry 256 random bits, so a fast hash is enough.
  token_hash text NOT NULL UNIQUE,
  -- The last characters of the token, so a person can tell their tokens apart in a list.
  token_hint text NOT NULL,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  CONSTRAINT api_tokens_scopes_known CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['upload', 'manage']::text[])
);

CREATE INDEX api_tokens_user_id ON api_tokens (user_id);

CREATE TABLE user_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);

CREATE INDEX user_identities_user_id ON user_identities (user_id);

CREATE TABLE oidc_records (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);

CREATE INDEX oidc_records_grant_id ON oidc_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_records_uid ON oidc_records (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_records_user_code ON oidc_records (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_records_expires_at ON oidc_records (expires_at) WHERE expires_at IS NOT NULL;
