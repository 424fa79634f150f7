import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeEntities, decodeXmlText } from '../../archive/descriptor';

/** One plugin version as an upstream's feed describes it. */
export interface FeedEntry {
  xmlId: string;
  version: string;
  name: string;
  /** HTML. */
  description: string;
  vendor: { name: string; email: string | null; url: string | null };
  since: string | null;
  until: string | null;
  /** HTML change notes. */
  notes: string;
  /** Absolute: relative links are resolved against the feed's address. */
  downloadUrl: URL;
  /** The archive's size in bytes when the feed gives it (`size="..."`). */
  size: number | undefined;
  /** The feed's category and any `<tags>`, as tag names. */
  tags: string[];
}

export interface ParsedFeed {
  entries: FeedEntry[];
  /** Entries that could not be read, one sentence each (the rest of the feed is still used). */
  problems: string[];
}

/** A feed that is not one: the message says what was found instead. */
export class FeedFormatError extends Error {
  override name = 'FeedFormatError';
}

/** Elements whose content is taken raw and decoded here (CDATA kept, the five entities decoded). */
const TEXT_ELEMENTS = [
  'name',
  'id',
  'description',
  'version',
  'vendor',
  'change-notes',
  'download-url',
  'tag',
];

const parser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  stopNodes: TEXT_ELEMENTS.map((element) => `*.${element}`),
  isArray: (name) => ['category', 'idea-plugin', 'plugin', 'tag', 'tags'].includes(name),
});

type XmlNode = Record<string, unknown>;

function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return decodeXmlText(value).trim();
  if (isNode(value) && typeof value['#text'] === 'string') return decodeXmlText(value['#text']).trim();
  return '';
}

function attribute(value: unknown, name: string): string | null {
  if (!isNode(value)) return null;
  const raw = value[`@_${name}`];
  if (typeof raw !== 'string') return null;
  const decoded = decodeEntities(raw).trim();
  return decoded === '' ? null : decoded;
}

function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** What a text that is not a feed looks like, for the message: its first characters, on one line. */
function opening(text: string): string {
  // Control characters are dropped: the sentence is shown on screens and in logs.
  const line = [...text.trim().slice(0, 60).replace(/\s+/g, ' ')]
    .filter((character) => character >= ' ' && character !== '\u007f')
    .join('');
  return line === '' ? 'an empty answer' : `"${line}${text.trim().length > 60 ? '…' : ''}"`;
}

function readEntry(
  element: XmlNode,
  shape: 'repository' | 'simple',
  category: string | null,
  feedUrl: URL,
): FeedEntry | string {
  const xmlId = shape === 'simple' ? (attribute(element, 'id') ?? '') : textOf(element.id);
  const version = shape === 'simple' ? (attribute(element, 'version') ?? '') : textOf(element.version);
  const link = shape === 'simple' ? (attribute(element, 'url') ?? '') : textOf(element['download-url']);
  const label = xmlId ? `The entry ${xmlId}${version ? ` ${version}` : ''}` : 'An entry';
  if (!xmlId) return `${label} has no plugin id.`;
  if (!version) return `${label} has no version.`;
  if (!link) return `${label} has no download address.`;
  let downloadUrl: URL;
  try {
    downloadUrl = new URL(link, feedUrl);
  } catch {
    return `${label} has a download address that is not a URL: "${link.slice(0, 200)}".`;
  }
  if (downloadUrl.protocol !== 'http:' && downloadUrl.protocol !== 'https:') {
    return `${label} has a download address that is not http or https: ${downloadUrl.protocol}.`;
  }
  const ideaVersion = element['idea-version'];
  const sizeText = attribute(element, 'size');
  const size = sizeText !== null && /^\d{1,15}$/.test(sizeText) ? Number(sizeText) : undefined;
  const tags = [
    ...(category ? [category] : []),
    ...list(element.tags).flatMap((tagsElement) =>
      isNode(tagsElement) ? list(tagsElement.tag).map(textOf) : [],
    ),
  ].filter((tag) => tag !== '');
  return {
    xmlId,
    version,
    name: textOf(element.name) || xmlId,
    description: textOf(element.description),
    vendor: {
      name: textOf(element.vendor),
      email: attribute(element.vendor, 'email'),
      url: attribute(element.vendor, 'url'),
    },
    since: attribute(ideaVersion, 'since-build'),
    until: attribute(ideaVersion, 'until-build'),
    notes: textOf(element['change-notes']),
    downloadUrl,
    size: size !== undefined && size > 0 ? size : undefined,
    tags: [...new Set(tags)],
  };
}

/**
 * Reads an upstream's answer to `/plugins/list/?build=` in either shape the IDE accepts: the marketplace's
 * `<plugin-repository>` (categories of `<idea-plugin>`) or the simple `<plugins>` (`updatePlugins.xml`).
 * Throws {@link FeedFormatError} for anything else, naming what came instead. Document type declarations are
 * refused before parsing (entity expansion is an attack path and no feed needs one).
 */
export function parseFeed(text: string, feedUrl: URL): ParsedFeed {
  const where = `The answer of ${feedUrl.href}`;
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new FeedFormatError(
      `${where} declares a document type or entities, which a plugin feed never does.`,
    );
  }
  const validation = XMLValidator.validate(text);
  if (validation !== true) {
    throw new FeedFormatError(
      `${where} is not a plugin repository feed: it is not XML (${validation.err.msg.replace(/\.$/, '')}, line ${validation.err.line}; it starts with ${opening(text)}).`,
    );
  }
  let document: unknown;
  try {
    document = parser.parse(text);
  } catch (error) {
    throw new FeedFormatError(
      `${where} could not be read as XML: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
  if (!isNode(document)) throw new FeedFormatError(`${where} is not a plugin repository feed.`);
  const entries: FeedEntry[] = [];
  const problems: string[] = [];
  const add = (entry: FeedEntry | string) => {
    if (typeof entry === 'string') problems.push(entry);
    else entries.push(entry);
  };
  if ('plugin-repository' in document) {
    const repository = document['plugin-repository'];
    for (const category of list(isNode(repository) ? repository.category : undefined)) {
      if (!isNode(category)) continue;
      const name = attribute(category, 'name');
      for (const element of list(category['idea-plugin'])) {
        if (isNode(element)) add(readEntry(element, 'repository', name, feedUrl));
      }
    }
    // Some feeds list plugins outside categories.
    for (const element of list(isNode(repository) ? repository['idea-plugin'] : undefined)) {
      if (isNode(element)) add(readEntry(element, 'repository', null, feedUrl));
    }
  } else if ('plugins' in document) {
    const root = document.plugins;
    for (const element of list(isNode(root) ? root.plugin : undefined)) {
      if (isNode(element)) add(readEntry(element, 'simple', null, feedUrl));
    }
  } else {
    const root = Object.keys(document).find((key) => !key.startsWith('@_') && key !== '#text');
    throw new FeedFormatError(
      `${where} is not a plugin repository feed: its root element is <${root ?? '?'}>, not <plugin-repository> or <plugins>.`,
    );
  }
  return { entries, problems };
}

/** The feed's address for one IDE build: `<base>/plugins/list/?build=<build>[&pluginId=...]`. */
export function feedUrl(baseUrl: string, build: string, pluginIds: readonly string[]): URL {
  const url = new URL(`${baseUrl}/plugins/list/`);
  url.searchParams.set('build', build);
  for (const id of pluginIds) url.searchParams.append('pluginId', id);
  return url;
}
