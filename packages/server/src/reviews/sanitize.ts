import sanitizeHtml from 'sanitize-html';

/**
 * Reviews and replies are plain text. Whatever a page or an app does with them later (render them as text,
 * or, carelessly, as HTML), nothing in them may act as markup: every tag, comment and script is removed
 * here, before the text is stored.
 */
const REMOVE_ALL_MARKUP: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  disallowedTagsMode: 'discard',
};

/** The only escapes sanitize-html writes into text; turned back into characters, since we store text. */
const TEXT_ESCAPES: Readonly<Record<string, string>> = {
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&amp;': '&',
};

/** More rounds than any real text needs: each round that changes something removes markup. */
const MAX_ROUNDS = 10;

// Control characters (but tab and line feed) and the bidirectional overrides that can make a text read
// differently from what it is.
const INVISIBLE_CHARACTERS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/** Where an HTML parser would start a tag, a comment, a doctype or a processing instruction. */
const MARKUP_START = /<(?=[a-zA-Z!/?])/g;

function removeMarkupOnce(text: string): string {
  return sanitizeHtml(text, REMOVE_ALL_MARKUP).replace(
    /&(?:lt|gt|quot|#39|amp);/g,
    (escape) => TEXT_ESCAPES[escape] ?? escape,
  );
}

/**
 * The text of a review or reply as it is stored: Unicode-normalised, without control characters, without any
 * markup, with tidy line breaks. Markup is removed until none is left, so that escaped markup
 * (`&lt;script&gt;`) cannot turn into real markup once the escapes are read back as characters.
 */
export function sanitizeReviewText(input: string): string {
  let text = input.normalize('NFC').replace(/\r\n?/g, '\n').replace(INVISIBLE_CHARACTERS, '');
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const next = removeMarkupOnce(text);
    if (next === text) break;
    text = next;
  }
  // Text that is still changing after so many rounds is an attack, not a review: keep no angle brackets.
  if (removeMarkupOnce(text) !== text) text = text.replace(/[<>]/g, '');
  // What the parser leaves as text at the very end ("</", "<!", "<a") could still start markup next to a
  // page's own HTML: a space after the bracket makes it text for every parser.
  text = text.replace(MARKUP_START, '< ');
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
