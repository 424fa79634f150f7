import { isProductCode, isValidWebsite, normalizeLink } from '@marketplace/core';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { TextDecoder } from 'node:util';
import { buildRangeErrors } from './build-range';

export interface PluginVendor {
  name: string;
  email: string | null;
  url: string | null;
}

export interface PluginDependency {
  /** The xml id of the plugin (or `com.intellij.modules.*` module) depended upon. */
  id: string;
  optional: boolean;
  /** The descriptor loaded when an optional dependency is present (`config-file`). */
  configFile: string | null;
}

/** What META-INF/plugin.xml says about the plugin. Text is decoded; description and notes stay HTML. */
export interface PluginDescriptor {
  id: string;
  name: string;
  version: string;
  vendor: PluginVendor;
  description: string;
  changeNotes: string | null;
  sinceBuild: string;
  untilBuild: string | null;
  dependencies: PluginDependency[];
  /** `<product-descriptor>`: what a paid or freemium plugin declares (null when absent). */
  productDescriptor: ProductDescriptor | null;
}

/**
 * `<product-descriptor code="PMYPLUGIN" release-date="20260115" release-version="20261" optional="true"/>`
 * as the vendor's marketplace requires it of paid plugins (freemium ones say optional="true").
 */
export interface ProductDescriptor {
  code: string;
  /** yyyy-MM-dd. */
  releaseDate: string;
  releaseVersion: number;
  optional: boolean;
}

export type DescriptorReading =
  | { ok: true; descriptor: PluginDescriptor; warnings: string[] }
  | { ok: false; errors: string[]; warnings: string[] };

const MAX_LENGTH = { id: 255, name: 255, version: 64, vendor: 255, email: 255, url: 1024 } as const;

/** Below this many characters of text, a description cannot tell people what the plugin does. */
export const SHORT_DESCRIPTION_LENGTH = 40;

/**
 * Elements whose content is taken raw, so CDATA sections and the five predefined entities are decoded
 * here rather than by the parser (which runs with entity processing off).
 */
const TEXT_ELEMENTS = ['id', 'name', 'version', 'vendor', 'description', 'change-notes', 'depends'];

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
  stopNodes: TEXT_ELEMENTS.map((element) => `idea-plugin.${element}`),
});

/**
 * Reads META-INF/plugin.xml. Document type declarations are refused before any parsing: they are what
 * XXE (external entities reading local files) and billion-laughs (entities expanding exponentially) need,
 * and no plugin descriptor has a reason to carry one.
 */
export function readPluginDescriptor(bytes: Uint8Array, now: Date): DescriptorReading {
  const decoded = decodeDescriptor(bytes);
  if (typeof decoded !== 'string') return { ok: false, errors: [decoded.error], warnings: [] };
  const text = decoded;
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    return {
      ok: false,
      errors: [
        'plugin.xml contains a <!DOCTYPE> or <!ENTITY> declaration. They are refused because entity expansion (XXE, billion laughs) is an attack path; remove the declaration, a plugin descriptor needs none.',
      ],
      warnings: [],
    };
  }
  let document: unknown;
  try {
    const validation = XMLValidator.validate(text);
    if (validation !== true) {
      const { msg, line, col } = validation.err;
      return {
        ok: false,
        errors: [
          `plugin.xml is not well-formed XML: ${msg.replace(/\.$/, '')} (line ${line}, column ${col}).`,
        ],
        warnings: [],
      };
    }
    document = parser.parse(text);
  } catch (error) {
    // Pathological nesting can exhaust the parser's stack; that is a broken descriptor, not a server fault.
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, errors: [`plugin.xml could not be parsed: ${reason}.`], warnings: [] };
  }
  const root = isRecord(document) ? document['idea-plugin'] : undefined;
  if (root === undefined) {
    return {
      ok: false,
      errors: [
        'plugin.xml has no <idea-plugin> root element: a plugin descriptor starts with <idea-plugin>.',
      ],
      warnings: [],
    };
  }
  return readFields(isRecord(root) ? root : {}, now);
}

function readFields(root: Record<string, unknown>, now: Date): DescriptorReading {
  const errors: string[] = [];
  const warnings: string[] = [];
  const single = (element: string): unknown => {
    const value = root[element];
    if (Array.isArray(value)) {
      errors.push(`plugin.xml declares <${element}> ${value.length} times; declare it once.`);
      return value[0];
    }
    return value;
  };
  const required = (element: string, hint: string): string => {
    const value = textOf(single(element));
    if (value === '') errors.push(`plugin.xml does not declare <${element}>: ${hint}`);
    return value;
  };

  const id = required('id', 'add <id>com.yourcompany.yourplugin</id>, the id the plugin keeps for life.');
  if (id !== '' && !/^[\p{L}\p{N}._+\- ]+$/u.test(id)) {
    errors.push(`The plugin id '${id}' may contain only letters, digits, '.', '_', '-', '+' and spaces.`);
  }
  checkLength(errors, 'id', id, MAX_LENGTH.id);

  const name = required('name', 'add <name>, the name people see in the marketplace and the IDE.');
  checkLength(errors, 'name', name, MAX_LENGTH.name);

  const version = required('version', 'add <version>, for example <version>1.0.0</version>.');
  if (version !== '' && !/^[^\s/\\<>"'`]+$/u.test(version)) {
    errors.push(`The version '${version}' must not contain spaces, slashes, quotes or angle brackets.`);
  }
  checkLength(errors, 'version', version, MAX_LENGTH.version);

  const vendorElement = single('vendor');
  const declaredVendorUrl = optionalAttribute(vendorElement, 'url');
  // The link rule of the management API's PUT urls (core links.ts) applies to addresses from archives too: one
  // it refuses (javascript:, data:...) is left out with a warning, never stored nor served to the IDE.
  const vendorUrlAccepted = declaredVendorUrl === null || isValidWebsite(declaredVendorUrl);
  const vendor: PluginVendor = {
    name: textOf(vendorElement),
    email: optionalAttribute(vendorElement, 'email'),
    url: declaredVendorUrl !== null && vendorUrlAccepted ? normalizeLink(declaredVendorUrl) : null,
  };
  if (vendor.name === '') {
    errors.push(
      'plugin.xml does not declare <vendor>: add <vendor email="..." url="...">Your name or company</vendor>.',
    );
  }
  checkLength(errors, 'vendor', vendor.name, MAX_LENGTH.vendor);
  checkLength(errors, 'vendor email', vendor.email ?? '', MAX_LENGTH.email);
  checkLength(errors, 'vendor url', vendor.url ?? '', MAX_LENGTH.url);
  if (!vendorUrlAccepted) {
    warnings.push(`The vendor url '${declaredVendorUrl}' is not a web address, so it was left out.`);
  }

  const description = required('description', 'add <description> with HTML that tells people what it does.');
  const descriptionText = description.replace(/<[^>]*>/g, '').trim();
  if (description !== '' && descriptionText.length < SHORT_DESCRIPTION_LENGTH) {
    warnings.push(
      `The description is ${descriptionText.length} characters long; at least ${SHORT_DESCRIPTION_LENGTH} tell people what the plugin does.`,
    );
  }
  const changeNotes = textOf(single('change-notes'));

  const ideaVersion = single('idea-version');
  const sinceBuild = optionalAttribute(ideaVersion, 'since-build');
  const untilBuild = optionalAttribute(ideaVersion, 'until-build');
  errors.push(...buildRangeErrors(sinceBuild, untilBuild, now));

  const dependencies = readDependencies(root, errors);
  const productDescriptor = readProductDescriptor(single('product-descriptor'), errors);

  if (errors.length > 0) return { ok: false, errors, warnings };
  return {
    ok: true,
    descriptor: {
      id,
      name,
      version,
      vendor,
      description,
      changeNotes: changeNotes === '' ? null : changeNotes,
      sinceBuild: (sinceBuild ?? '').trim(),
      untilBuild: untilBuild === null || untilBuild.trim() === '' ? null : untilBuild.trim(),
      dependencies,
      productDescriptor,
    },
    warnings,
  };
}

/** The product descriptor, checked the way the vendor's marketplace checks it; null when absent. */
function readProductDescriptor(element: unknown, errors: string[]): ProductDescriptor | null {
  if (element === undefined) return null;
  const code = optionalAttribute(element, 'code')?.trim() ?? '';
  const releaseDate = optionalAttribute(element, 'release-date')?.trim() ?? '';
  const releaseVersion = optionalAttribute(element, 'release-version')?.trim() ?? '';
  const before = errors.length;
  if (!isProductCode(code)) {
    errors.push(
      `<product-descriptor code="${code}"> is not a product code: 4 to 15 capital letters and digits, starting with a letter (for example PMYPLUGIN).`,
    );
  }
  const dateMatch = /^(\d{4})(\d{2})(\d{2})$/.exec(releaseDate);
  const isoDate = dateMatch ? `${dateMatch[1]}-${dateMatch[2]}-${dateMatch[3]}` : '';
  if (
    !dateMatch ||
    Number.isNaN(Date.parse(`${isoDate}T00:00:00Z`)) ||
    new Date(`${isoDate}T00:00:00Z`).toISOString().slice(0, 10) !== isoDate
  ) {
    errors.push(
      `<product-descriptor release-date="${releaseDate}"> is not a date written YYYYMMDD (for example 20260115).`,
    );
  }
  if (!/^\d{1,6}$/.test(releaseVersion) || Number(releaseVersion) < 1) {
    errors.push(
      `<product-descriptor release-version="${releaseVersion}"> is not a release number (for example 20261 for the first release of 2026).`,
    );
  }
  if (errors.length > before) return null;
  return {
    code,
    releaseDate: isoDate,
    releaseVersion: Number(releaseVersion),
    optional: optionalAttribute(element, 'optional')?.trim().toLowerCase() === 'true',
  };
}

/** `<depends optional="true" config-file="x.xml">id</depends>`, and the newer `<dependencies><plugin id/>`. */
function readDependencies(root: Record<string, unknown>, errors: string[]): PluginDependency[] {
  const dependencies: PluginDependency[] = [];
  for (const element of asList(root['depends'])) {
    const id = textOf(element);
    if (id === '') {
      errors.push('plugin.xml has an empty <depends> element: name the plugin or module depended upon.');
      continue;
    }
    dependencies.push({
      id,
      optional: optionalAttribute(element, 'optional')?.toLowerCase() === 'true',
      configFile: optionalAttribute(element, 'config-file'),
    });
  }
  for (const block of asList(root['dependencies'])) {
    if (!isRecord(block)) continue;
    for (const plugin of asList(block['plugin'])) {
      const id = optionalAttribute(plugin, 'id');
      if (id === null) {
        errors.push('plugin.xml has a <dependencies><plugin> without an id attribute.');
        continue;
      }
      dependencies.push({ id, optional: false, configFile: null });
    }
  }
  return dependencies;
}

function checkLength(errors: string[], what: string, value: string, max: number): void {
  if (value.length > max)
    errors.push(`The ${what} is ${value.length} characters long; at most ${max} are allowed.`);
}

function asList(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(element: unknown): string {
  if (typeof element === 'string') return decodeXmlText(element).trim();
  if (isRecord(element) && typeof element['#text'] === 'string')
    return decodeXmlText(element['#text']).trim();
  return '';
}

function optionalAttribute(element: unknown, attribute: string): string | null {
  if (!isRecord(element)) return null;
  const value = element[`@_${attribute}`];
  if (typeof value !== 'string') return null;
  const decoded = decodeEntities(value).trim();
  return decoded === '' ? null : decoded;
}

const CDATA_SECTION = /<!\[CDATA\[([\s\S]*?)\]\]>/g;

/** Raw element content: CDATA sections are kept verbatim, entities outside them are decoded. */
export function decodeXmlText(raw: string): string {
  let result = '';
  let last = 0;
  for (const match of raw.matchAll(CDATA_SECTION)) {
    result += decodeEntities(raw.slice(last, match.index)) + (match[1] ?? '');
    last = match.index + match[0].length;
  }
  return result + decodeEntities(raw.slice(last));
}

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/**
 * The five entities XML predefines and character references. Nothing else can be defined (declarations
 * are refused), and each reference yields at most one character, so decoding never expands the text.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (reference, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : reference;
    }
    return PREDEFINED_ENTITIES[body] ?? reference;
  });
}

/** plugin.xml is UTF-8 unless a byte-order mark or the XML declaration says otherwise. */
function decodeDescriptor(bytes: Uint8Array): string | { error: string } {
  let encoding = 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = 'utf-16be';
  else {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
    const declared = /^\s*<\?xml[^>]*\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
    if (declared !== undefined) encoding = declared.toLowerCase();
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: false });
  } catch {
    return {
      error: `plugin.xml declares the encoding '${encoding}', which is not supported; save it as UTF-8.`,
    };
  }
  try {
    return decoder.decode(bytes);
  } catch {
    return { error: `plugin.xml is not valid ${encoding} text; save it as UTF-8.` };
  }
}
