/** Escapes text for XML content and attribute values (double-quoted). */
const NEEDS_ESCAPING = /[<>&"']/;

export function escapeXml(text: string): string {
  // Most names and versions need nothing: testing first saves a replace per value in feeds of many MB.
  if (!NEEDS_ESCAPING.test(text)) return text;
  return text.replace(/[<>&"']/g, (character) => {
    switch (character) {
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '&':
        return '&amp;';
      case '"':
        return '&quot;';
      default:
        return '&apos;';
    }
  });
}

/**
 * Characters XML 1.0 does not allow at all (control characters other than tab, newline and carriage return,
 * lone surrogates, U+FFFE/U+FFFF); the IDE's parser rejects the whole feed if one appears, so they are dropped.
 */
const INVALID_XML_CHARACTERS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const HAS_INVALID_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

export function stripInvalidXmlCharacters(text: string): string {
  return HAS_INVALID_XML_CHARACTER.test(text) ? text.replace(INVALID_XML_CHARACTERS, '') : text;
}

/** HTML kept as is inside CDATA; a `]]>` in it is split across two sections so it cannot close ours. */
export function cdata(html: string): string {
  return `<![CDATA[${stripInvalidXmlCharacters(html).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

type AttributeValue = string | number | null | undefined;

/** A small writer for the feeds: elements with escaped attributes and text, CDATA for HTML. */
export class XmlWriter {
  private readonly parts: string[];

  /** `declaration: false` writes a fragment of a document, without the XML declaration. */
  constructor(options: { declaration?: boolean } = {}) {
    this.parts = options.declaration === false ? [] : ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  }

  private attributes(attributes: Record<string, AttributeValue>): string {
    let text = '';
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined) continue;
      text += ` ${name}="${escapeXml(stripInvalidXmlCharacters(String(value)))}"`;
    }
    return text;
  }

  open(name: string, attributes: Record<string, AttributeValue> = {}): this {
    this.parts.push(`<${name}${this.attributes(attributes)}>`);
    return this;
  }

  close(name: string): this {
    this.parts.push(`</${name}>`);
    return this;
  }

  /** An element with text content (escaped), or empty when the text is absent. */
  text(name: string, text: AttributeValue, attributes: Record<string, AttributeValue> = {}): this {
    const content =
      text === null || text === undefined ? '' : escapeXml(stripInvalidXmlCharacters(String(text)));
    this.parts.push(`<${name}${this.attributes(attributes)}>${content}</${name}>`);
    return this;
  }

  /** An element whose content is HTML, wrapped in CDATA. */
  html(name: string, html: string): this {
    this.parts.push(`<${name}>${cdata(html)}</${name}>`);
    return this;
  }

  empty(name: string, attributes: Record<string, AttributeValue> = {}): this {
    this.parts.push(`<${name}${this.attributes(attributes)}/>`);
    return this;
  }

  newline(): this {
    this.parts.push('\n');
    return this;
  }

  toString(): string {
    return this.parts.join('');
  }
}
