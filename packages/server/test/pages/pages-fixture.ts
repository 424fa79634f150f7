import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { selectRows } from '../../src/search/sql';
import { multipartBody } from '../publishing/publishing-test-app';
import type { ReviewsTestApp } from '../reviews/reviews-test-app';
import { storedEntry, writeZip, type RawEntry } from '../archive/zip-writer';

/** A 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export interface PagePeople {
  owner: number;
  developer: number;
  admin: number;
}

let count = 0;

export async function addPeople(t: ReviewsTestApp): Promise<PagePeople> {
  count += 1;
  return {
    owner: await t.addUser(`page-owner-${count}`),
    developer: await t.addUser(`page-stranger-${count}`),
    admin: await t.addUser(`page-admin-${count}`, { isAdmin: true }),
  };
}

/** A listed plugin of `ownerId`. */
export async function addPlugin(t: ReviewsTestApp, ownerId: number): Promise<number> {
  count += 1;
  const [row] = await selectRows<{ id: number }>(
    t.db,
    sql`INSERT INTO plugins (family, xml_id, name, owner_id, lifecycle_state, approved, published_at)
      VALUES ('intellij', ${`org.example.pages${count}`}, ${`Pages ${count}`}, ${ownerId}, 'published', true, now())
      RETURNING id`,
  );
  return row!.id;
}

export function uploadRequest(
  url: string,
  file: { name: string; content: Buffer; type?: string },
  method: 'POST' | 'PUT' = 'POST',
) {
  const { body, headers } = multipartBody({}, file);
  return { method, url, payload: body, headers } as const;
}

export function json<T>(response: LightMyRequestResponse): T {
  return response.json() as T;
}

/** A small webhelp as a documentation tool builds it, with `extra` entries beside it. */
export function webhelpZip(
  extra: RawEntry[] = [],
  options: { index?: boolean; folder?: string } = {},
): Buffer {
  const prefix = options.folder ? `${options.folder}/` : '';
  const entries: RawEntry[] = [
    ...(options.index === false
      ? []
      : [
          storedEntry(
            `${prefix}index.html`,
            '<!doctype html><title>Docs</title><script src="app.js"></script><h1>Docs</h1>',
          ),
        ]),
    storedEntry(`${prefix}app.js`, 'document.title = "Docs loaded";'),
    storedEntry(`${prefix}styles/site.css`, 'body { color: #333 }'),
    storedEntry(`${prefix}topics/install.html`, '<!doctype html><h1>Install</h1>'),
    ...extra,
  ];
  return writeZip(entries);
}

export async function rowCount(t: ReviewsTestApp, table: string, pluginId: number): Promise<number> {
  const statement =
    table === 'custom_pages'
      ? sql`SELECT count(*)::int AS n FROM custom_pages WHERE plugin_id = ${pluginId}`
      : table === 'custom_page_images'
        ? sql`SELECT count(*)::int AS n FROM custom_page_images i JOIN custom_pages c ON c.id = i.page_id WHERE c.plugin_id = ${pluginId}`
        : sql`SELECT count(*)::int AS n FROM custom_page_files f JOIN custom_pages c ON c.id = f.page_id WHERE c.plugin_id = ${pluginId}`;
  const [row] = await selectRows<{ n: number }>(t.db, statement);
  return Number(row?.n ?? 0);
}
