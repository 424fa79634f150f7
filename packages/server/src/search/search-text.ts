/**
 * Text handling of the search index. PostgreSQL analyses the documents (the weighted `search_vector` of each
 * plugin: English stems for names, vendors, tags and descriptions, exact words for xmlIds) and the English
 * stems of the words people type; this file reads those vectors and handles what is done in the process:
 * splitting the typed text into words and finding names that are one or two typing mistakes away.
 */

/** Search text as people type it: trimmed, inner whitespace collapsed, at most 200 characters. */
export function normalizeSearchText(text: string | undefined): string {
  return (text ?? '').trim().replace(/\s+/g, ' ').slice(0, 200);
}

/** The words of a text: lower-case runs of letters and digits, the first 8 of them. */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .slice(0, 8);
}

/**
 * Where a word stands in the document, from the vector's weight letters: the name (A) counts most, then the
 * xmlId, vendor and tags (B), then the description (C).
 */
export const FIELD_WEIGHTS = [0.1, 0.2, 0.4, 1] as const;
export const NAME_FIELD = 3;

/**
 * The lexemes of a tsvector's text form (`'flask':1A,8B 'run':25C`) with the heaviest field each appears in
 * (3 = A ... 0 = D). A lexeme made of several words ('node.js', 'org.example.tool') also gives its words,
 * so that a search for "js" finds it.
 */
export function parseSearchVector(vector: string): Map<string, number> {
  const lexemes = new Map<string, number>();
  const keep = (lexeme: string, field: number) => {
    if (lexeme && (lexemes.get(lexeme) ?? -1) < field) lexemes.set(lexeme, field);
  };
  for (const match of vector.matchAll(/'((?:[^'\\]|''|\\.)*)'(?::([0-9A-D,]+))?/g)) {
    const lexeme = (match[1] ?? '').replace(/''/g, "'").replace(/\\(.)/g, '$1');
    const positions = match[2] ?? '';
    let field = 0;
    for (const letter of positions.matchAll(/[ABC]/g)) {
      field = Math.max(field, 3 - (letter[0].charCodeAt(0) - 65));
    }
    keep(lexeme, field);
    if (/[^\p{L}\p{N}]/u.test(lexeme)) {
      for (const part of lexeme.split(/[^\p{L}\p{N}]+/u)) keep(part, field);
    }
  }
  return lexemes;
}

/**
 * How many typing mistakes a word may hold and still find a name: none under 3 letters, one (a letter
 * missing, added, changed or two swapped) up to 7, two from 8.
 */
export function allowedMistakes(word: string): number {
  if (word.length < 3) return 0;
  return word.length < 8 ? 1 : 2;
}

/** Edit distance with adjacent swaps counted as one edit (optimal string alignment), or `limit + 1` if over. */
export function typingDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, beforePrevious[j - 2]! + 1);
      }
      current.push(value);
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/** The strings made by removing up to `depth` letters from `word` (the word itself included). */
function deletions(word: string, depth: number): Set<string> {
  const found = new Set([word]);
  let frontier = [word];
  for (let level = 0; level < depth; level++) {
    const next: string[] = [];
    for (const text of frontier) {
      if (text.length <= 1) continue;
      for (let index = 0; index < text.length; index++) {
        const shorter = text.slice(0, index) + text.slice(index + 1);
        if (!found.has(shorter)) {
          found.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return found;
}

/**
 * The words of item names, found again from a misspelt word. Each word is filed under every string made by
 * removing up to two of its letters; a typed word's own removals then meet the words within two edits
 * (symmetric deletion), and the true distance is checked on those few.
 */
export class TypoDictionary {
  private readonly byDeletion = new Map<string, string[]>();
  private readonly words = new Set<string>();

  add(word: string): void {
    if (word.length < 3 || this.words.has(word)) return;
    this.words.add(word);
    for (const key of deletions(word, 2)) {
      const list = this.byDeletion.get(key);
      if (list) list.push(word);
      else this.byDeletion.set(key, [word]);
    }
  }

  /** Known words within the typing mistakes the typed word may hold, with their distance. */
  near(typed: string): Map<string, number> {
    const limit = allowedMistakes(typed);
    const found = new Map<string, number>();
    if (limit === 0) return found;
    for (const key of deletions(typed, limit)) {
      for (const word of this.byDeletion.get(key) ?? []) {
        if (found.has(word)) continue;
        const distance = typingDistance(typed, word, limit);
        if (distance <= limit) found.set(word, distance);
      }
    }
    return found;
  }
}

/** Sorted strings, for the words that start with a prefix. */
export function prefixRange(sorted: readonly string[], prefix: string): [number, number] {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  let end = low;
  while (end < sorted.length && sorted[end]!.startsWith(prefix)) end++;
  return [low, end];
}
