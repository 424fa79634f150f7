-- The sales tab reads an item's sales of a date range (totals, months, countries, a page, the CSV). Sales are
-- appended in time order, so one item's rows are spread over nearly every page of the table: an index that
-- carries the columns those queries read lets them read the index alone (1,000,000 sales, an item with 100,000:
-- sales-info 253 -> 11 ms, analytics 267 -> 56 ms at one connection; `pnpm bench commerce`).
CREATE INDEX sales_plugin_time_cover_idx ON sales (plugin_id, sold_at, id)
  INCLUDE (license_kind, billing_period, quantity, country_code, currency, gross_minor, discount_minor,
    commission_minor, net_minor, after_trial);
DROP INDEX sales_plugin_time_idx;
