import { sql } from 'drizzle-orm';
import { CatalogueFollower } from '../db/catalogue-follower';
import type { Database, Transaction } from '../db/client';
import { selectRows } from '../search/sql';
import { foldedForms, lookalikeKeys } from './skeleton';

/** What the look-alike checks know of one item of the catalogue. */
export interface CatalogueEntry {
  id: number;
  family: string;
  xmlId: string;
  name: string;
  downloads: number;
  /** The owner and developers: their own items never count against them. */
  managers: readonly number[];
  idKeys: readonly string[];
  nameKeys: readonly string[];
  /** The name as near-name distances are measured on it. */
  folded: readonly [string, string];
}

interface EntryRow {
  id: number;
  family: string;
  xml_id: string;
  name: string;
  downloads: number | string;
  owner_id: number | null;
  developers: number[] | null;
  deleted: boolean;
}

interface Changes {
  rows: EntryRow[];
  removed: number[];
}

/**
 * The skeletons of every item's id and name, per process, kept up to date from the database like the search
 * index ({@link CatalogueFollower}: rows changed since the last look are re-read), so that a check folds only
 * the new id and name, never the catalogue. Deleted items are left out: their ids are free again.
 */
export class LookalikeIndex extends CatalogueFollower<Changes> {
  private readonly entries = new Map<number, CatalogueEntry>();
  /** family -> key -> item ids. */
  private readonly byIdKey = new Map<string, Map<string, Set<number>>>();
  private readonly byNameKey = new Map<string, Map<string, Set<number>>>();

  constructor(db: Database) {
    super(db, { lookEveryMs: 1000 });
  }

  /** Reads every change committed so far, then answers from memory. */
  async current(): Promise<this> {
    await this.catchUp();
    return this;
  }

  /** Items of the family whose id looks like one of `keys`. */
  withIdLike(family: string, keys: readonly string[]): CatalogueEntry[] {
    return this.lookUp(this.byIdKey, family, keys);
  }

  /** Items of the family whose name looks like one of `keys`. */
  withNameLike(family: string, keys: readonly string[]): CatalogueEntry[] {
    return this.lookUp(this.byNameKey, family, keys);
  }

  /** Items of the family with at least `downloads` downloads. */
  popular(family: string, downloads: number): CatalogueEntry[] {
    return [...this.entries.values()].filter(
      (entry) => entry.family === family && entry.downloads >= downloads,
    );
  }

  private lookUp(
    table: Map<string, Map<string, Set<number>>>,
    family: string,
    keys: readonly string[],
  ): CatalogueEntry[] {
    const ids = new Set<number>();
    for (const key of keys) for (const id of table.get(family)?.get(key) ?? []) ids.add(id);
    return [...ids].map((id) => this.entries.get(id)).filter((entry) => entry !== undefined);
  }

  protected async readChanges(transaction: Transaction, since: string, rebuild: boolean): Promise<Changes> {
    const rows = await selectRows<EntryRow>(
      transaction,
      sql`SELECT p.id, p.family, p.xml_id, p.name, p.downloads, p.owner_id,
          p.lifecycle_state = 'deleted' AS deleted,
          (SELECT array_agg(d.user_id) FROM plugin_developers d WHERE d.plugin_id = p.id) AS developers
        FROM plugins p ${rebuild ? sql`` : sql`WHERE p.changed_by_xact >= ${since}::xid8`}`,
    );
    return { rows, removed: rebuild ? [] : await this.removedPluginIds(transaction, since) };
  }

  protected async apply(changes: Changes, rebuild: boolean): Promise<void> {
    if (rebuild) {
      this.entries.clear();
      this.byIdKey.clear();
      this.byNameKey.clear();
    }
    for (const id of changes.removed) this.remove(id);
    for (const row of changes.rows) {
      const before = this.entries.get(row.id);
      if (row.deleted) {
        this.remove(row.id);
        continue;
      }
      const downloads = Number(row.downloads);
      const managers = [...(row.owner_id === null ? [] : [row.owner_id]), ...(row.developers ?? [])];
      if (before && before.xmlId === row.xml_id && before.name === row.name && before.family === row.family) {
        // Only the downloads or the people changed (the usual case): nothing to fold again.
        this.entries.set(row.id, { ...before, downloads, managers });
        continue;
      }
      this.remove(row.id);
      const entry: CatalogueEntry = {
        id: row.id,
        family: row.family,
        xmlId: row.xml_id,
        name: row.name,
        downloads,
        managers,
        idKeys: lookalikeKeys(row.xml_id),
        nameKeys: lookalikeKeys(row.name),
        folded: foldedForms(row.name),
      };
      this.entries.set(row.id, entry);
      add(this.byIdKey, entry.family, entry.idKeys, entry.id);
      add(this.byNameKey, entry.family, entry.nameKeys, entry.id);
    }
  }

  private remove(id: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    drop(this.byIdKey, entry.family, entry.idKeys, id);
    drop(this.byNameKey, entry.family, entry.nameKeys, id);
  }
}

function add(
  table: Map<string, Map<string, Set<number>>>,
  family: string,
  keys: readonly string[],
  id: number,
) {
  let byKey = table.get(family);
  if (!byKey) table.set(family, (byKey = new Map()));
  for (const key of keys) {
    let ids = byKey.get(key);
    if (!ids) byKey.set(key, (ids = new Set()));
    ids.add(id);
  }
}

function drop(
  table: Map<string, Map<string, Set<number>>>,
  family: string,
  keys: readonly string[],
  id: number,
) {
  const byKey = table.get(family);
  for (const key of keys) {
    const ids = byKey?.get(key);
    ids?.delete(id);
    if (ids?.size === 0) byKey?.delete(key);
  }
}

const indexes = new WeakMap<Database, LookalikeIndex>();

/** The index of this database in this process (made on first use; each test database gets its own). */
export function lookalikeIndexOf(db: Database): LookalikeIndex {
  let index = indexes.get(db);
  if (!index) indexes.set(db, (index = new LookalikeIndex(db)));
  return index;
}
