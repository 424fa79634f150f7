import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { plugins, users, vendors } from './catalogue';

// Mirrors src/db/migrations/0040_commerce.sql column for column (checks live in the SQL).

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const minor = (name: string) => bigint(name, { mode: 'number' });

export const sellers = pgTable('sellers', {
  vendorId: integer('vendor_id')
    .primaryKey()
    .references(() => vendors.id, { onDelete: 'cascade' }),
  status: text('status').notNull().default('PENDING'),
  legalName: text('legal_name').notNull(),
  countryCode: text('country_code').notNull(),
  address: text('address').notNull(),
  taxId: text('tax_id'),
  billingEmail: text('billing_email').notNull(),
  payoutMethod: text('payout_method').notNull(),
  payoutDetails: text('payout_details').notNull(),
  submittedBy: integer('submitted_by').references(() => users.id, { onDelete: 'set null' }),
  submittedAt: timestamptz('submitted_at').notNull().defaultNow(),
  decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
  decidedAt: timestamptz('decided_at'),
  decisionNote: text('decision_note'),
});

export const pluginSellingTerms = pgTable('plugin_selling_terms', {
  pluginId: integer('plugin_id')
    .primaryKey()
    .references(() => plugins.id, { onDelete: 'cascade' }),
  trialDays: integer('trial_days').notNull().default(30),
  monthlyEnabled: boolean('monthly_enabled').notNull().default(true),
  yearlyEnabled: boolean('yearly_enabled').notNull().default(true),
  personalEnabled: boolean('personal_enabled').notNull().default(true),
  organizationEnabled: boolean('organization_enabled').notNull().default(true),
  eulaUrl: text('eula_url'),
  supportEmail: text('support_email'),
  licenseCheckDocumented: boolean('license_check_documented').notNull().default(false),
  continuityCustomized: boolean('continuity_customized').notNull().default(false),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export const pluginPriceLists = pgTable(
  'plugin_price_lists',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    effectiveAt: timestamptz('effective_at').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    appliedAt: timestamptz('applied_at'),
  },
  (table) => [
    unique().on(table.pluginId, table.effectiveAt),
    index('plugin_price_lists_pending_idx')
      .on(table.effectiveAt)
      .where(sql`applied_at IS NULL`),
  ],
);

export const pluginPrices = pgTable(
  'plugin_prices',
  {
    priceListId: integer('price_list_id')
      .notNull()
      .references(() => pluginPriceLists.id, { onDelete: 'cascade' }),
    licenseKind: text('license_kind').notNull(),
    billingPeriod: text('billing_period').notNull(),
    amountMinor: minor('amount_minor').notNull(),
  },
  (table) => [primaryKey({ columns: [table.priceListId, table.licenseKind, table.billingPeriod] })],
);

export const pluginVolumeDiscounts = pgTable(
  'plugin_volume_discounts',
  {
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    minQuantity: integer('min_quantity').notNull(),
    percent: integer('percent').notNull(),
  },
  (table) => [primaryKey({ columns: [table.pluginId, table.minQuantity] })],
);

export const pluginContinuityDiscounts = pgTable(
  'plugin_continuity_discounts',
  {
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    percent: integer('percent').notNull(),
  },
  (table) => [primaryKey({ columns: [table.pluginId, table.year] })],
);

export const pluginPrograms = pgTable(
  'plugin_programs',
  {
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    program: text('program').notNull(),
    percent: integer('percent').notNull(),
  },
  (table) => [primaryKey({ columns: [table.pluginId, table.program] })],
);

export const programApplications = pgTable(
  'program_applications',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    program: text('program').notNull(),
    evidence: text('evidence').notNull(),
    status: text('status').notNull().default('PENDING'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamptz('decided_at'),
  },
  (table) => [unique().on(table.pluginId, table.userId, table.program)],
);

export const offers = pgTable(
  'offers',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    discountKind: text('discount_kind').notNull(),
    discountValue: minor('discount_value').notNull(),
    validFrom: timestamptz('valid_from').notNull(),
    validUntil: timestamptz('valid_until').notNull(),
    licenseKinds: text('license_kinds')
      .array()
      .notNull()
      .default(sql`'{}'`),
    maxUsesPerCoupon: integer('max_uses_per_coupon'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('offers_plugin_idx').on(table.pluginId, table.validFrom)],
);

export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    offerId: integer('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    code: text('code').notNull().unique(),
    uses: integer('uses').notNull().default(0),
    sentAt: timestamptz('sent_at'),
    sentTo: text('sent_to'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('coupons_offer_idx').on(table.offerId)],
);

export const trials = pgTable(
  'trials',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startedAt: timestamptz('started_at').notNull().defaultNow(),
    endsAt: timestamptz('ends_at').notNull(),
  },
  (table) => [unique().on(table.pluginId, table.userId)],
);

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    buyerId: integer('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'restrict' }),
    licenseKind: text('license_kind').notNull(),
    billingPeriod: text('billing_period').notNull(),
    quantity: integer('quantity').notNull(),
    licensee: text('licensee').notNull(),
    countryCode: text('country_code').notNull(),
    currency: text('currency').notNull(),
    couponId: integer('coupon_id').references(() => coupons.id, { onDelete: 'set null' }),
    subtotalMinor: minor('subtotal_minor').notNull(),
    discountMinor: minor('discount_minor').notNull(),
    totalMinor: minor('total_minor').notNull(),
    lines: jsonb('lines').notNull(),
    status: text('status').notNull().default('AWAITING_PAYMENT'),
    paymentProvider: text('payment_provider').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    paidAt: timestamptz('paid_at'),
  },
  (table) => [index('orders_buyer_idx').on(table.buyerId, table.createdAt.desc())],
);

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: 'cascade' }),
    number: text('number').notNull().unique(),
    amountMinor: minor('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull().default('OPEN'),
    issuedAt: timestamptz('issued_at').notNull().defaultNow(),
    dueAt: timestamptz('due_at').notNull(),
    paidAt: timestamptz('paid_at'),
    markedPaidBy: integer('marked_paid_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('invoices_open_idx')
      .on(table.issuedAt)
      .where(sql`status = 'OPEN'`),
  ],
);

export const licenses = pgTable(
  'licenses',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: integer('order_id')
      .unique()
      .references(() => orders.id, { onDelete: 'set null' }),
    trialId: integer('trial_id')
      .unique()
      .references(() => trials.id, { onDelete: 'set null' }),
    licensee: text('licensee').notNull(),
    licenseKind: text('license_kind').notNull(),
    seats: integer('seats').notNull(),
    startsAt: timestamptz('starts_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    token: text('token').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('licenses_user_idx').on(table.userId, table.createdAt.desc())],
);

export const sales = pgTable(
  'sales',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    orderId: integer('order_id')
      .unique()
      .references(() => orders.id, { onDelete: 'set null' }),
    soldAt: timestamptz('sold_at').notNull(),
    licenseKind: text('license_kind').notNull(),
    billingPeriod: text('billing_period').notNull(),
    quantity: integer('quantity').notNull(),
    countryCode: text('country_code').notNull(),
    currency: text('currency').notNull(),
    grossMinor: minor('gross_minor').notNull(),
    discountMinor: minor('discount_minor').notNull(),
    commissionMinor: minor('commission_minor').notNull(),
    netMinor: minor('net_minor').notNull(),
    afterTrial: boolean('after_trial').notNull().default(false),
  },
  // The SQL index also INCLUDEs every column the sales tab reads (migration 0042), so it answers alone.
  (table) => [index('sales_plugin_time_cover_idx').on(table.pluginId, table.soldAt, table.id)],
);

export const licenseSigningKeys = pgTable('license_signing_keys', {
  kid: text('kid').primaryKey(),
  privateJwk: jsonb('private_jwk').notNull(),
  publicJwk: jsonb('public_jwk').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});
