import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { pluginVersions, users, vendors } from './catalogue';

// Plugin archive signatures (src/trust, "Signatures"): mirrors src/db/migrations/0091_version_signatures.sql.

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A certificate of a stored chain, as `version_signatures.chain` keeps it (dates as ISO text). */
export interface StoredCertificate {
  subject: string;
  issuer: string;
  serialNumber: string;
  fingerprint256: string;
  validFrom: string;
  validTo: string;
}

export const versionSignatures = pgTable(
  'version_signatures',
  {
    versionId: integer('version_id')
      .primaryKey()
      .references(() => pluginVersions.id, { onDelete: 'cascade' }),
    /** The author's certificate's common name; null when the author did not sign. */
    signedBy: text('signed_by'),
    chain: jsonb('chain')
      .notNull()
      .default(sql`'[]'`)
      .$type<StoredCertificate[]>(),
    algorithm: text('algorithm'),
    selfSigned: boolean('self_signed').notNull().default(false),
    expired: boolean('expired').notNull().default(false),
    notYetValid: boolean('not_yet_valid').notNull().default(false),
    chainComplete: boolean('chain_complete').notNull().default(false),
    trusted: boolean('trusted').notNull().default(false),
    /** SHA-256 fingerprint of the marketplace certificate that countersigned; null when it could not. */
    countersignedBy: text('countersigned_by'),
    countersignProblem: text('countersign_problem'),
    checkedAt: timestamptz('checked_at').notNull().defaultNow(),
  },
  (table) => [
    check('version_signatures_check', sql`${table.signedBy} IS NOT NULL OR ${table.chain} = '[]'::jsonb`),
    check(
      'version_signatures_check1',
      sql`${table.countersignedBy} IS NULL OR ${table.countersignProblem} IS NULL`,
    ),
  ],
);

export const vendorSignatureRequirements = pgTable('vendor_signature_requirements', {
  vendorId: integer('vendor_id')
    .primaryKey()
    .references(() => vendors.id, { onDelete: 'cascade' }),
  requiredBy: integer('required_by').references(() => users.id, { onDelete: 'set null' }),
  requiredAt: timestamptz('required_at').notNull().defaultNow(),
  reason: text('reason'),
});

/** One row: the marketplace's generated signing key, shared by every node. */
export const marketplaceSigningKey = pgTable('marketplace_signing_key', {
  id: smallint('id').primaryKey().default(1),
  privateKey: text('private_key').notNull(),
  certificateChain: text('certificate_chain').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});
