import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** Where the stylesheets of server-rendered pages' style attributes are served, named by their content. */
export const PAGE_STYLES_PREFIX = '/assets/page-styles/';

/** What React writes in a style attribute, read back (it escapes these five). */
function unescapeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The characters a style value may have to be repeated in a stylesheet: nothing that could end the rule, the
 * selector's string or the sheet (braces, quotes, backslashes, at-rules, markup).
 */
const SAFE_STYLE = /^[\w\s\-:;%.,#()/+']*$/;

/** The attribute a server-rendered page carries its elements' inline styles in (site/src/main.tsx). */
export const STYLE_DATA_ATTRIBUTE = 'data-mp-style';

/**
 * The longest sheet name: the name is the sheet's style values themselves (compressed), so the address stays
 * well within what browsers, proxies and load balancers take. A page with more values than fit gets the rest
 * from its script, as before hydration.
 */
const MAX_NAME_LENGTH = 6000;
/** What a name may unpack to, at most: names come from anybody's address bar. */
const MAX_UNPACKED_BYTES = 64 * 1024;

function pack(values: readonly string[]): string {
  return deflateRawSync(JSON.stringify(values), { level: 9 }).toString('base64url');
}

function unpack(name: string): string[] | undefined {
  if (!/^[\w-]+$/.test(name) || name.length > MAX_NAME_LENGTH) return undefined;
  try {
    const values: unknown = JSON.parse(
      inflateRawSync(Buffer.from(name, 'base64url'), { maxOutputLength: MAX_UNPACKED_BYTES }).toString(
        'utf8',
      ),
    );
    if (!Array.isArray(values) || values.length === 0) return undefined;
    if (!values.every((value) => typeof value === 'string' && value !== '' && SAFE_STYLE.test(value))) {
      return undefined;
    }
    return values as string[];
  } catch {
    return undefined;
  }
}

/**
 * The components set a few styles inline (a star's fill, a chart's bars, a card's cover). A client render
 * applies them through the DOM, which the CSP allows; as style attributes in the page's markup the CSP
 * refuses them (and the browser reports each refusal). So the markup of a server-rendered page carries them
 * as `data-mp-style` attributes instead, and links a stylesheet that gives each such attribute its
 * declarations (`[data-mp-style="width:50%"]{width:50% !important}`), so the first paint is right; the
 * page's script then sets them through the DOM before hydration. The sheet's name is its values, packed:
 * any node of the marketplace, after any restart, serves the sheet of any page (a cached page included),
 * with nothing kept in memory.
 */
export class InlineStyleSheets {
  /**
   * The markup with its style attributes moved to data-mp-style, and the address of their stylesheet
   * (undefined when there are none). Only start tags are touched: in React's markup and DOMPurify's no text
   * holds `<` followed by a letter, and no attribute value a `"`.
   */
  extract(html: string): { html: string; sheet: string | undefined } {
    const values = new Set<string>();
    const moved = html.replace(/<[a-zA-Z][^<>]*>/g, (tag) =>
      tag.replace(/ style="([^"]*)"/, (_attribute, raw: string) => {
        const value = unescapeAttribute(raw);
        if (value && SAFE_STYLE.test(value)) values.add(value);
        return ` ${STYLE_DATA_ATTRIBUTE}="${raw}"`;
      }),
    );
    if (values.size === 0) return { html: moved, sheet: undefined };
    let kept = [...values].sort();
    let name = pack(kept);
    while (name.length > MAX_NAME_LENGTH && kept.length > 1) {
      kept = kept.slice(0, Math.ceil(kept.length / 2));
      name = pack(kept);
    }
    return {
      html: moved,
      sheet: name.length > MAX_NAME_LENGTH ? undefined : `${PAGE_STYLES_PREFIX}${name}.css`,
    };
  }

  /** The sheet named `name` (without `.css`), or undefined when the name is not one this made. */
  get(name: string): string | undefined {
    const values = unpack(name);
    if (!values) return undefined;
    const rules = values.map((value) => {
      const declarations = value
        .split(';')
        .filter((declaration) => declaration.includes(':'))
        .map((declaration) => `${declaration.trim()} !important`)
        .join(';');
      return `[${STYLE_DATA_ATTRIBUTE}="${value}"]{${declarations}}`;
    });
    return `${rules.join('\n')}\n`;
  }
}
