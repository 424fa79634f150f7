-- Plugin archive signatures (src/trust, "Signatures"): who signed each uploaded version, which vendors must
-- sign, and the marketplace's own signing key when the operator gives none.

-- One row per version that came through the upload: the author's signer as the upload found it (the first
-- signer of the archive's signing block; all null/false when the author did not sign) and whether the
-- marketplace countersigned the stored archive. Versions from before this migration, the demo catalogue and
-- mirrored archives have no row.
CREATE TABLE version_signatures (
  version_id integer PRIMARY KEY REFERENCES plugin_versions (id) ON DELETE CASCADE,
  -- The common name of the author's certificate (what "signed by" shows); null when unsigned.
  signed_by text,
  -- The author's chain, leaf first: [{subject, issuer, serialNumber, fingerprint256, validFrom, validTo}].
  chain jsonb NOT NULL DEFAULT '[]',
  algorithm text,
  self_signed boolean NOT NULL DEFAULT false,
  -- Any certificate of the chain had expired, or was not valid yet, when the upload was checked.
  expired boolean NOT NULL DEFAULT false,
  not_yet_valid boolean NOT NULL DEFAULT false,
  -- Every link verifies and the chain ends in a self-signed root.
  chain_complete boolean NOT NULL DEFAULT false,
  -- The chain ends in one of the operator's trusted roots (SIGNATURE_TRUSTED_ROOTS_FILE).
  trusted boolean NOT NULL DEFAULT false,
  -- SHA-256 fingerprint of the marketplace certificate that countersigned; null when the archive could not
  -- be countersigned (then `countersign_problem` says why, e.g. a ZIP64 archive).
  countersigned_by text,
  countersign_problem text,
  checked_at timestamptz NOT NULL DEFAULT now(),
  CHECK (signed_by IS NOT NULL OR chain = '[]'::jsonb),
  CHECK (countersigned_by IS NULL OR countersign_problem IS NULL)
);

-- Vendors whose uploads must carry a valid author signature (an administrator's decision, audited).
CREATE TABLE vendor_signature_requirements (
  vendor_id integer PRIMARY KEY REFERENCES vendors (id) ON DELETE CASCADE,
  required_by integer REFERENCES users (id) ON DELETE SET NULL,
  required_at timestamptz NOT NULL DEFAULT now(),
  reason text
);

-- The marketplace's signing key and self-signed certificate, made by the first node that needs them when the
-- operator configured no key files (MARKETPLACE_SIGNING_KEY_FILE, MARKETPLACE_SIGNING_CERT_FILE). One row,
-- shared by every node, so that all countersign with the same key; inserted only when there is none.
CREATE TABLE marketplace_signing_key (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  -- PKCS #8 PEM.
  private_key text NOT NULL,
  -- PEM certificates, the signer's first.
  certificate_chain text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
