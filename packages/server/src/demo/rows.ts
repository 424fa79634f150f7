import type { PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/client';

/** Multi-row inserts kept under PostgreSQL's 65,535 parameters per statement. */
export async function insertInChunks<Table extends PgTable>(
  tx: Queryable,
  table: Table,
  rows: Array<Table['$inferInsert']>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Math.max(1, Object.keys(rows[0] as object).length);
  const chunkSize = Math.max(1, Math.floor(60_000 / columns));
  for (let start = 0; start < rows.length; start += chunkSize) {
    await tx.insert(table).values(rows.slice(start, start + chunkSize));
  }
}

/** An array literal of numbers, ISO times or plain words, none of which needs quoting. */
export function arrayLiteral(values: ReadonlyArray<number | string | boolean>): string {
  return `{${values.join(',')}}`;
}
