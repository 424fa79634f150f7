import { sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/client';
import { flagVersionForModeration } from '../publishing/moderation-flags';
import { selectRows } from '../search/sql';
import { lookalikeIndexOf, type CatalogueEntry } from './lookalike-index';
import { namespaceRefusal } from './namespaces';
import { trustOptionsFromEnv, type TrustOptions } from './options';
import { foldedDistance, foldedForms, lookalikeKeys } from './skeleton';

/** What the trust rules say of a new item: a refusal for the uploader, or reasons a moderator should look. */
export interface NewItemVerdict {
  /** A sentence for the uploader: the item is refused (400). */
  refusal: string | undefined;
  /** Sentences for the moderators: the item is accepted, and flagged with these. */
  reviewReasons: string[];
}

const formatter = new Intl.NumberFormat('en-US');

function managedBy(entry: CatalogueEntry, userId: number): boolean {
  return entry.managers.includes(userId);
}

/**
 * The trust rules for a new item's id and name, before it is written (the upload pipeline asks; so does a
 * rename): the id's namespace (reserved or claimed prefixes), ids and names that look like an existing item's
 * once confusables, case and separators are folded (refused), and names a small edit away from a popular
 * item's (accepted, but flagged for the moderators). Items the uploader owns or develops never count against
 * them; nor does the item itself (`pluginId`, on a rename).
 */
export async function checkNewItem(
  db: Database,
  input: {
    family: string;
    xmlId?: string;
    name: string;
    uploaderId: number;
    pluginId?: number;
    /**
     * Only items with a smaller id count (the scan of an item already written: of two look-alikes, the newer
     * one is the suspect), and namespaces are not asked (claims made later do not touch existing items).
     */
    existingItemOlderThan?: number;
  },
  options: TrustOptions = trustOptionsFromEnv(),
): Promise<NewItemVerdict> {
  const refused = (refusal: string): NewItemVerdict => ({ refusal, reviewReasons: [] });
  const older = input.existingItemOlderThan;
  if (input.xmlId !== undefined && older === undefined) {
    const namespace = await namespaceRefusal(db, options, {
      xmlId: input.xmlId,
      uploaderId: input.uploaderId,
    });
    if (namespace !== undefined) return refused(namespace);
  }
  const index = await lookalikeIndexOf(db).current();
  const others = (entries: CatalogueEntry[]) =>
    entries.filter(
      (entry) =>
        entry.id !== input.pluginId &&
        !managedBy(entry, input.uploaderId) &&
        (older === undefined || entry.id < older),
    );

  if (input.xmlId !== undefined) {
    const xmlId = input.xmlId;
    const [twin] = others(index.withIdLike(input.family, lookalikeKeys(xmlId))).filter(
      (entry) => entry.xmlId !== xmlId,
    );
    if (twin)
      return refused(`The id ${xmlId} looks like ${twin.xmlId} (${twin.name}), which already exists.`);
  }

  const name = input.name.trim();
  const [namesake] = others(index.withNameLike(input.family, lookalikeKeys(name)));
  if (namesake) {
    return refused(
      namesake.name.trim().toLowerCase() === name.toLowerCase()
        ? `The name "${name}" is already the name of ${namesake.xmlId}, a plugin of another vendor: choose a name of your own (<name> in plugin.xml).`
        : `The name "${name}" looks like "${namesake.name}" (${namesake.xmlId}), which already exists: choose a name of your own (<name> in plugin.xml).`,
    );
  }

  const reviewReasons: string[] = [];
  const folded = foldedForms(name);
  const longEnough = (forms: readonly [string, string]) =>
    [...forms[1]].length >= options.nameDistanceMinLength;
  if (options.nameDistance > 0 && longEnough(folded)) {
    for (const popular of others(index.popular(input.family, options.popularDownloads))) {
      if (!longEnough(popular.folded)) continue;
      if (foldedDistance(folded, popular.folded, options.nameDistance) > options.nameDistance) continue;
      reviewReasons.push(
        `Look-alike name: "${name}" is close to "${popular.name}" (${popular.xmlId}, ${formatter.format(popular.downloads)} downloads), a popular item of another vendor. Check that it does not pose as it before approving.`,
      );
    }
  }
  return { refusal: undefined, reviewReasons };
}

/**
 * Flags the new item's first version for the moderators with the verdict's reasons (unresolved admin notes,
 * shown in the approval queue, and audit entries). Call it inside the transaction that writes the version.
 */
export async function flagForReview(
  db: Queryable,
  verdict: NewItemVerdict,
  version: { pluginId: number; versionId: number; version: string },
): Promise<void> {
  for (const text of verdict.reviewReasons) {
    await flagVersionForModeration(db, { ...version, source: 'trust', text });
  }
}

/**
 * Why renaming an item to `name` is refused (a look-alike of another vendor's item of its family), or
 * undefined when it is not. The item itself and the items of its own people never count.
 */
export async function renameRefusal(
  db: Database,
  pluginId: number,
  name: string,
  userId: number | null,
): Promise<string | undefined> {
  const [item] = await selectRows<{ family: string }>(
    db,
    sql`SELECT family FROM plugins WHERE id = ${pluginId}`,
  );
  if (!item) return undefined;
  const verdict = await checkNewItem(db, { family: item.family, name, uploaderId: userId ?? 0, pluginId });
  return verdict.refusal;
}
