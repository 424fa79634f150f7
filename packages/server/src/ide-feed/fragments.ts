import { XmlWriter } from '../routes/ide/xml';
import { downloadPath } from '../routes/api/plugin-queries';
import { deflatePiece, storedPiece, type DeflatedPiece, type StoredPiece } from './deflate-pieces';

/**
 * Raised whenever the rendering below changes, so stored fragments of the old form are rendered again (the
 * version is part of every fragment's source digest).
 */
export const FRAGMENT_FORMAT = 'ide-feed-fragment/1';

/** What a version's fragment is rendered from: the version and the plugin's descriptive fields. */
export interface FragmentSource {
  version_id: number;
  size: number;
  cdate: number;
  name: string;
  xml_id: string;
  description: string;
  version: string;
  vendor_name: string | null;
  vendor_email: string | null;
  vendor_url: string | null;
  since_build: string;
  until_build: string | null;
  notes: string;
  dependencies: string[];
}

/**
 * The middle of a version's `<idea-plugin>` element in the `<plugin-repository>` feed: everything but the
 * numbers that change with every download and rating, which are spliced around it when the feed is
 * answered. It starts inside the start tag and ends inside `<rating>`:
 *
 *     <idea-plugin downloads="N"          (live head)
 *      size=".." date=".." url=""><name>..</name> .. <download-url>..</download-url><rating>
 *     4.5</rating></idea-plugin>          (live tail)
 */
export function renderFragmentText(source: FragmentSource, publicUrl: string): string {
  const xml = new XmlWriter({ declaration: false })
    .text('name', source.name)
    .text('id', source.xml_id)
    .html('description', source.description)
    .text('version', source.version)
    .text('vendor', source.vendor_name ?? '', {
      email: source.vendor_email ?? '',
      url: source.vendor_url ?? '',
    })
    .empty('idea-version', {
      min: 'n/a',
      max: 'n/a',
      'since-build': source.since_build,
      'until-build': source.until_build,
    })
    .html('change-notes', source.notes);
  for (const dependency of source.dependencies) xml.text('depends', dependency);
  xml.text('download-url', publicUrl + downloadPath(source.version_id));
  // Sizes and dates are numbers: nothing in them needs escaping.
  return ` size="${source.size}" date="${Math.round(source.cdate)}" url="">${xml.toString()}<rating>`;
}

export function renderFragment(source: FragmentSource, publicUrl: string): DeflatedPiece {
  return deflatePiece(Buffer.from(renderFragmentText(source, publicUrl)));
}

/** The live head of an `<idea-plugin>` element: the plugin's download count. */
export function liveHead(downloads: number): StoredPiece {
  return storedPiece(Buffer.from(`<idea-plugin downloads="${Math.round(downloads)}"`));
}

/** Tails by rating as shown: there are only a few dozen. */
const tails = new Map<string, StoredPiece>();

/** The live tail of an `<idea-plugin>` element: the plugin's rating, one decimal as the feed always had. */
export function liveTail(rating: number): StoredPiece {
  const shown = rating.toFixed(1);
  let tail = tails.get(shown);
  if (!tail) {
    tail = storedPiece(Buffer.from(`${shown}</rating></idea-plugin>\n`));
    tails.set(shown, tail);
  }
  return tail;
}
