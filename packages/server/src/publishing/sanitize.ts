import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * HTML written by developers (descriptions, change notes, documentation) is shown on our pages, so it keeps
 * text formatting, links and images but loses scripts, styles, frames, forms and event handlers.
 */
const DOCUMENT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'h1',
    'h2',
    'del',
    'ins',
    'sup',
    'sub',
    'details',
    'summary',
  ],
  allowedAttributes: {
    a: ['href', 'name', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    '*': ['id'],
    th: ['align', 'colspan', 'rowspan'],
    td: ['align', 'colspan', 'rowspan'],
    code: ['class'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer' }),
  },
};

export function sanitizeDocumentHtml(html: string): string {
  return sanitizeHtml(html, DOCUMENT_OPTIONS);
}

/** Markdown is rendered to HTML (raw HTML inside it included) and then sanitised like any HTML. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return sanitizeDocumentHtml(html);
}

const SVG_ELEMENTS = [
  'svg',
  'g',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'defs',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'title',
  'desc',
  'symbol',
  'use',
];

const SVG_ATTRIBUTES = [
  'viewBox',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'd',
  'points',
  'fill',
  'fill-opacity',
  'fill-rule',
  'clip-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-dasharray',
  'opacity',
  'transform',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'clip-path',
  'mask',
  'id',
  'xmlns',
  'version',
  'font-size',
  'font-family',
  'font-weight',
  'text-anchor',
  'preserveAspectRatio',
  'href',
  'xlink:href',
  'xmlns:xlink',
];

/**
 * An uploaded SVG icon keeps its drawing elements only: no scripts, no event handlers, no foreignObject, no
 * external references (a `href` may only point inside the document). Answers undefined when nothing of an
 * SVG document is left.
 */
export function sanitizeSvg(text: string): string | undefined {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return undefined;
  const cleaned = sanitizeHtml(text, {
    allowedTags: SVG_ELEMENTS,
    allowedAttributes: { '*': SVG_ATTRIBUTES },
    allowedSchemes: [],
    parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
    exclusiveFilter: (frame) =>
      [frame.attribs.href, frame.attribs['xlink:href']].some(
        (reference) => reference !== undefined && !reference.startsWith('#'),
      ) || Object.values(frame.attribs).some((value) => /url\(\s*['"]?(?!#)/i.test(value)),
  }).trim();
  return /^<svg[\s>]/.test(cleaned) && cleaned.endsWith('</svg>') ? cleaned : undefined;
}
