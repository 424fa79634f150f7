-- Selling on the marketplace (src/commerce): sellers, prices, discounts, programs, offers and coupons,
-- trials, orders and their invoices, licences and sales. Money is whole minor units of the marketplace's one
-- currency (bigint), percentages whole percents.

-- A vendor's application to sell, with the legal and payout details an administrator checks.
CREATE TABLE sellers (
  vendor_id integer PRIMARY KEY REFERENCES vendors (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  legal_name text NOT NULL,
  country_code text NOT NULL CHECK (country_code ~ '^[A-Z]{2}$'),
  address text NOT NULL,
  tax_id text,
  billing_email text NOT NULL,
  payout_method text NOT NULL CHECK (payout_method IN ('BANK_TRANSFER', 'PAYPAL')),
  payout_details text NOT NULL,
  submitted_by integer REFERENCES users (id) ON DELETE SET NULL,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  decided_by integer REFERENCES users (id) ON DELETE SET NULL,
  decided_at timestamptz,
  decision_note text
);

-- What an item sells besides its prices (the plugin's `subscriptions` and `selling-details`).
CREATE TABLE plugin_selling_terms (
  plugin_id integer PRIMARY KEY REFERENCES plugins (id) ON DELETE CASCADE,
  trial_days integer NOT NULL DEFAULT 30 CHECK (trial_days = 0 OR trial_days BETWEEN 7 AND 90),
  monthly_enabled boolean NOT NULL DEFAULT true,
  yearly_enabled boolean NOT NULL DEFAULT true,
  personal_enabled boolean NOT NULL DEFAULT true,
  organization_enabled boolean NOT NULL DEFAULT true,
  eula_url text,
  support_email text,
  license_check_documented boolean NOT NULL DEFAULT false,
  -- false: the item has the marketplace's default continuity discount (20% year 2, 40% from year 3).
  continuity_customized boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Price lists take effect at a time: the current one is the latest whose effective_at has passed; later
-- ones are scheduled changes, announced before their date. applied_at is set by the scheduled job once a
-- list has taken effect (for the record; reading prices never waits for it).
CREATE TABLE plugin_price_lists (
  id serial PRIMARY KEY,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  effective_at timestamptz NOT NULL,
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  applied_at timestamptz,
  UNIQUE (plugin_id, effective_at)
);
CREATE INDEX plugin_price_lists_pending_idx ON plugin_price_lists (effective_at) WHERE applied_at IS NULL;

CREATE TABLE plugin_prices (
  price_list_id integer NOT NULL REFERENCES plugin_price_lists (id) ON DELETE CASCADE,
  license_kind text NOT NULL CHECK (license_kind IN ('PERSONAL', 'ORGANIZATION')),
  billing_period text NOT NULL CHECK (billing_period IN ('MONTHLY', 'YEARLY')),
  amount_minor bigint NOT NULL CHECK (amount_minor BETWEEN 0 AND 1000000000),
  PRIMARY KEY (price_list_id, license_kind, billing_period)
);

CREATE TABLE plugin_volume_discounts (
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  min_quantity integer NOT NULL CHECK (min_quantity BETWEEN 2 AND 10000),
  percent integer NOT NULL CHECK (percent BETWEEN 1 AND 100),
  PRIMARY KEY (plugin_id, min_quantity)
);

CREATE TABLE plugin_continuity_discounts (
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  year integer NOT NULL CHECK (year BETWEEN 2 AND 10),
  percent integer NOT NULL CHECK (percent BETWEEN 0 AND 100),
  PRIMARY KEY (plugin_id, year)
);

-- Community programs an item takes part in, with the discount (100: a free licence).
CREATE TABLE plugin_programs (
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  program text NOT NULL CHECK (program IN ('STUDENTS', 'OPEN_SOURCE', 'EDUCATION', 'STARTUPS')),
  percent integer NOT NULL CHECK (percent BETWEEN 1 AND 100),
  PRIMARY KEY (plugin_id, program)
);

-- A buyer's application to an item's program, decided by the item's vendor.
CREATE TABLE program_applications (
  id serial PRIMARY KEY,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  program text NOT NULL CHECK (program IN ('STUDENTS', 'OPEN_SOURCE', 'EDUCATION', 'STARTUPS')),
  evidence text NOT NULL,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_by integer REFERENCES users (id) ON DELETE SET NULL,
  decided_at timestamptz,
  UNIQUE (plugin_id, user_id, program)
);

CREATE TABLE offers (
  id serial PRIMARY KEY,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  name text NOT NULL,
  discount_kind text NOT NULL CHECK (discount_kind IN ('PERCENT', 'AMOUNT')),
  discount_value bigint NOT NULL CHECK (discount_value >= 0),
  valid_from timestamptz NOT NULL,
  valid_until timestamptz NOT NULL,
  license_kinds text[] NOT NULL DEFAULT '{}',
  max_uses_per_coupon integer CHECK (max_uses_per_coupon IS NULL OR max_uses_per_coupon >= 1),
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (valid_from < valid_until),
  CHECK (discount_kind <> 'PERCENT' OR discount_value BETWEEN 1 AND 100)
);
CREATE INDEX offers_plugin_idx ON offers (plugin_id, valid_from);

CREATE TABLE coupons (
  id serial PRIMARY KEY,
  offer_id integer NOT NULL REFERENCES offers (id) ON DELETE CASCADE,
  code text NOT NULL UNIQUE,
  uses integer NOT NULL DEFAULT 0 CHECK (uses >= 0),
  sent_at timestamptz,
  sent_to text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX coupons_offer_idx ON coupons (offer_id);

CREATE TABLE trials (
  id serial PRIMARY KEY,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL DEFAULT now(),
  ends_at timestamptz NOT NULL,
  -- One trial per customer and item.
  UNIQUE (plugin_id, user_id)
);

CREATE TABLE orders (
  id serial PRIMARY KEY,
  buyer_id integer NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE RESTRICT,
  license_kind text NOT NULL CHECK (license_kind IN ('PERSONAL', 'ORGANIZATION')),
  billing_period text NOT NULL CHECK (billing_period IN ('MONTHLY', 'YEARLY')),
  quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 10000),
  licensee text NOT NULL,
  country_code text NOT NULL CHECK (country_code ~ '^[A-Z]{2}$'),
  currency text NOT NULL,
  coupon_id integer REFERENCES coupons (id) ON DELETE SET NULL,
  subtotal_minor bigint NOT NULL CHECK (subtotal_minor >= 0),
  discount_minor bigint NOT NULL CHECK (discount_minor >= 0),
  total_minor bigint NOT NULL CHECK (total_minor >= 0),
  -- The quote's lines as the buyer saw them, kept with the order.
  lines jsonb NOT NULL,
  status text NOT NULL DEFAULT 'AWAITING_PAYMENT' CHECK (status IN ('AWAITING_PAYMENT', 'PAID', 'CANCELLED')),
  payment_provider text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  CHECK (subtotal_minor - discount_minor = total_minor)
);
CREATE INDEX orders_buyer_idx ON orders (buyer_id, created_at DESC);

CREATE TABLE invoices (
  id serial PRIMARY KEY,
  order_id integer NOT NULL UNIQUE REFERENCES orders (id) ON DELETE CASCADE,
  number text NOT NULL UNIQUE,
  amount_minor bigint NOT NULL CHECK (amount_minor >= 0),
  currency text NOT NULL,
  status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'PAID', 'VOID')),
  issued_at timestamptz NOT NULL DEFAULT now(),
  due_at timestamptz NOT NULL,
  paid_at timestamptz,
  marked_paid_by integer REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX invoices_open_idx ON invoices (issued_at) WHERE status = 'OPEN';

CREATE TABLE licenses (
  id serial PRIMARY KEY,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  order_id integer UNIQUE REFERENCES orders (id) ON DELETE SET NULL,
  trial_id integer UNIQUE REFERENCES trials (id) ON DELETE SET NULL,
  licensee text NOT NULL,
  license_kind text NOT NULL CHECK (license_kind IN ('PERSONAL', 'ORGANIZATION')),
  seats integer NOT NULL CHECK (seats >= 1),
  starts_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((order_id IS NULL) <> (trial_id IS NULL))
);
CREATE INDEX licenses_user_idx ON licenses (user_id, created_at DESC);

-- One row per sale: what the vendor's sales tab, analytics and report read. Amounts are kept as they were
-- at the time of the sale (the commission rate may change later).
CREATE TABLE sales (
  id bigserial PRIMARY KEY,
  plugin_id integer NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  order_id integer UNIQUE REFERENCES orders (id) ON DELETE SET NULL,
  sold_at timestamptz NOT NULL,
  license_kind text NOT NULL CHECK (license_kind IN ('PERSONAL', 'ORGANIZATION')),
  billing_period text NOT NULL CHECK (billing_period IN ('MONTHLY', 'YEARLY')),
  quantity integer NOT NULL CHECK (quantity >= 1),
  country_code text NOT NULL,
  currency text NOT NULL,
  gross_minor bigint NOT NULL CHECK (gross_minor >= 0),
  discount_minor bigint NOT NULL CHECK (discount_minor >= 0),
  commission_minor bigint NOT NULL CHECK (commission_minor >= 0),
  net_minor bigint NOT NULL CHECK (net_minor >= 0),
  -- Whether the buyer had tried the item before buying (trial-to-paid conversion).
  after_trial boolean NOT NULL DEFAULT false,
  CHECK (gross_minor - discount_minor = commission_minor + net_minor)
);
CREATE INDEX sales_plugin_time_idx ON sales (plugin_id, sold_at);

-- The marketplace's licence signing keys (Ed25519, JWK), shared by every server node.
CREATE TABLE license_signing_keys (
  kid text PRIMARY KEY,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- What a paid version declares in plugin.xml: <product-descriptor code release-date release-version optional>.
ALTER TABLE plugin_versions
  ADD COLUMN product_code text,
  ADD COLUMN product_release_date date,
  ADD COLUMN product_release_version integer,
  ADD COLUMN product_optional boolean;

-- The view of the newest approved versions shows the new columns too (appended, as CREATE OR REPLACE allows).
CREATE OR REPLACE VIEW plugin_latest_versions AS
  SELECT DISTINCT ON (plugin_id, channel) *
  FROM plugin_versions
  WHERE approval_state = 'approved' AND NOT hidden
  ORDER BY plugin_id, channel, created_at DESC, id DESC;
