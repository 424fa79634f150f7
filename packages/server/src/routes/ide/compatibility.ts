import {
  parseBuildNumber,
  productByCode,
  type BuildNumber,
  type IdeProduct,
  type ProductFamily,
} from '@marketplace/core';
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { ApiError } from '../../plugins/app/errors';
import { compatibleWithAny } from '../../search/sql';
import { epochMs, pluginVisibleTo, selectRows, versionVisibleTo, type Viewer } from '../../search/sql';

/** An IDE build as the feeds use it: its components and the product its code names (if known). */
export interface IdeBuild {
  text: string;
  build: BuildNumber;
  product: IdeProduct | undefined;
}

/** Reads the `build` an IDE sent; a text that is not a build number is a 400 with an example. */
export function readIdeBuild(text: string): IdeBuild {
  const build = parseBuildNumber(text);
  if (!build) {
    throw new ApiError(
      'validation',
      `"${text}" is not an IDE build number; expected something like IU-241.14494.240.`,
    );
  }
  const product = build.productCode === undefined ? undefined : productByCode(build.productCode);
  return { text, build, product };
}

/** The family whose items an IDE installs: its product's, or IntelliJ-based when the code is unknown. */
export function familyOfIde(ide: IdeBuild): ProductFamily {
  return ide.product?.family ?? 'intellij';
}

/**
 * The condition "the version `pv` of plugin `p` installs into this IDE": since <= build <= until (until open
 * when absent) by component arrays, which PostgreSQL orders as the IDE does (a prefix first); the plugin is
 * of the IDE's family (a course, of the edu family, is never offered as an IntelliJ plugin even when it names
 * IntelliJ IDEA among its products) and runs on the IDE's product, when the code names one.
 */
export function installsInto(ide: IdeBuild): SQL {
  const components = `{${ide.build.components.join(',')}}`;
  const bounds = sql`pv.since_components <= ${components}::bigint[]
    AND (pv.until_components IS NULL OR ${components}::bigint[] <= pv.until_components)`;
  const family = sql`p.family = ${familyOfIde(ide)}`;
  const product = ide.product ? compatibleWithAny([ide.product.key]) : sql`true`;
  return sql`(${bounds} AND ${family} AND ${product})`;
}

export interface CompatibleVersionRow {
  id: number;
  plugin_id: number;
  xml_id: string;
  name: string;
  version: string;
  channel: string;
  since_build: string;
  until_build: string | null;
  description: string;
  notes: string;
  file_size: number;
  file_name: string;
  dependencies: string[];
  cdate: number;
  downloads: number;
  rating_mean: number;
  vendor_name: string | null;
  vendor_url: string | null;
  vendor_email: string | null;
  category: string | null;
}

/**
 * The newest version of each plugin that installs into the IDE, in a channel, optionally only for some
 * plugin xml ids. Hidden, blocked, unapproved and unpublished plugins and versions never appear.
 */
export async function newestCompatibleVersions(
  db: Queryable,
  ide: IdeBuild,
  options: { channel: string; xmlIds?: readonly string[] | undefined; viewer?: Viewer | undefined },
): Promise<CompatibleVersionRow[]> {
  const xmlIdCondition =
    options.xmlIds === undefined
      ? sql`true`
      : options.xmlIds.length === 0
        ? sql`false`
        : sql`p.xml_id IN (${sql.join(
            [...new Set(options.xmlIds)].map((xmlId) => sql`${xmlId}`),
            sql`, `,
          )})`;
  return selectRows<CompatibleVersionRow>(
    db,
    sql`SELECT DISTINCT ON (p.id) pv.id, p.id AS plugin_id, p.xml_id, p.name, pv.version, pv.channel,
        pv.since_build, pv.until_build, p.description, pv.notes, pv.file_size::float8 AS file_size, pv.file_name,
        pv.dependencies, ${epochMs(sql`pv.created_at`)} AS cdate, p.downloads::float8 AS downloads, p.rating_mean,
        v.name AS vendor_name, v.url AS vendor_url, coalesce(v.email, p.email) AS vendor_email,
        (SELECT t.name FROM plugin_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.plugin_id = p.id
          ORDER BY t.privileged DESC, t.id LIMIT 1) AS category
      FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id LEFT JOIN vendors v ON v.id = p.vendor_id
      WHERE ${pluginVisibleTo(options.viewer)} AND ${versionVisibleTo(options.viewer)}
        AND pv.channel = ${options.channel} AND ${xmlIdCondition} AND ${installsInto(ide)}
      ORDER BY p.id, pv.created_at DESC, pv.id DESC`,
  );
}
