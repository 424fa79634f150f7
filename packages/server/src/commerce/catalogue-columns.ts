import { sql } from 'drizzle-orm';

/**
 * What the catalogue's search index reads of selling, as a column of a query over `plugins p`: the community
 * programs the item offers (the `communityPrograms` search filter). Kept here so the table stays commerce's;
 * migration 0041 stamps the plugin row when its programs change, so the index follows.
 */
export const PROGRAMS_OF_PLUGIN = sql`coalesce((SELECT array_agg(pp.program ORDER BY pp.program)
  FROM plugin_programs pp WHERE pp.plugin_id = p.id), '{}')`;
