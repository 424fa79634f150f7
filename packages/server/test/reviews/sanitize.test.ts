import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeReviewText } from '../../src/reviews';

/** What an HTML parser would start a tag, comment, doctype or processing instruction at. */
const MARKUP_START = /<[a-zA-Z!/?]/;

const FRAGMENTS = [
  '<',
  '>',
  '/',
  '!',
  '?',
  '--',
  '&',
  ';',
  '&lt;',
  '&gt;',
  '&amp;',
  '&#60;',
  '&#x3C;',
  'script',
  'img',
  'svg',
  'iframe',
  ' onerror=alert(1)',
  ' src=x',
  'javascript:',
  '"',
  "'",
  '=',
  ' ',
  '\n',
  'a',
  'B',
  '1',
  '<![CDATA[',
  ']]>',
  '\u0000',
  '\u202E',
];

describe('sanitizeReviewText', () => {
  it('leaves nothing an HTML parser would read as markup, however the input is built', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }), (parts) => {
        const cleaned = sanitizeReviewText(parts.join(''));
        expect(cleaned).not.toMatch(MARKUP_START);
        expect(cleaned.includes('\u0000') || cleaned.includes('\u202E')).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('is stable: cleaning a cleaned text changes nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }), (parts) => {
        const cleaned = sanitizeReviewText(parts.join(''));
        expect(sanitizeReviewText(cleaned)).toBe(cleaned);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps plain words, punctuation and single line breaks exactly', () => {
    const words = fc.stringMatching(/^[A-Za-z0-9 .,:()+*#@%$-]{1,40}$/);
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 5 }), (lines) => {
        const text = lines.map((line) => line.trim()).join('\n');
        fc.pre(!/\n\n/.test(text) && text.trim() === text);
        expect(sanitizeReviewText(text)).toBe(text);
      }),
    );
  });

  it('removes known attacks entirely and keeps the words around them', () => {
    const cases: Array<[string, string]> = [
      ['<script>alert(1)</script>', ''],
      ['<scr<script>ipt>alert(1)</script>', 'ipt>alert(1)'],
      ['<svg onload=alert(1)>', ''],
      ['<iframe src="javascript:alert(1)"></iframe>ok', 'ok'],
      ['&#60;script&#62;alert(1)&#60;/script&#62;', ''],
      ['&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt;', ''],
      ['<!-- <script>alert(1)</script> -->kept', 'kept'],
      ['<style>body{display:none}</style>Nice', 'Nice'],
      ['Great <3 and 2 < 3 > 1', 'Great <3 and 2 < 3 > 1'],
      ['Fast &amp; stable', 'Fast & stable'],
      ['Line one\r\nLine two\r\n\r\n\r\n\r\nLast   ', 'Line one\nLine two\n\nLast'],
      ['e\u0301te\u0301', '\u00e9t\u00e9'],
    ];
    for (const [input, expected] of cases)
      expect({ input, cleaned: sanitizeReviewText(input) }).toEqual({ input, cleaned: expected });
  });
});
