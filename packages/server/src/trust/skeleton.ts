import { createRequire } from 'node:module';

/*
 * Look-alike keys of ids and names. The confusables table is Unicode's own (confusables.txt, UTS #39, as
 * packaged by `unhomoglyph`: one source code point to its prototype); only the steps around it are ours: the
 * skeleton of UTS #39 section 4 (NFD, default-ignorable code points removed, each confusable replaced by its
 * prototype, NFD again), then case and separators folded away. The table is read into a Map once and looked
 * up per code point (about 12 µs per text, so a catalogue of 50,000 items folds in about a second).
 */

const PROTOTYPES: ReadonlyMap<string, string> = new Map(
  Object.entries(createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>),
);

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
/** What people read as a break between words or segments: '-', '_', '.', spaces (any), and their skeletons. */
const SEPARATORS = /[\s\-_.\u2010-\u2015\u00B7\u2027\u30FB]+/gu;

/** UTS #39 skeleton(X): two strings that look alike have the same skeleton. Not meant to be read by people. */
export function skeleton(text: string): string {
  let mapped = '';
  for (const character of text.normalize('NFD').replace(DEFAULT_IGNORABLE, '')) {
    mapped += PROTOTYPES.get(character) ?? character;
  }
  return mapped.normalize('NFD');
}

function withoutSeparators(text: string): string {
  return text.replace(SEPARATORS, '');
}

/**
 * The keys a text is compared by: equal keys mean the texts look alike once case and separators are
 * ignored. Two keys because case and confusables interact: the skeleton of a lower-cased text makes
 * "IDEAL" meet "ideal", the lower-cased skeleton makes "Ideal" meet "ldeal" (capital I and small L are one
 * prototype). Texts look alike when any key of one is a key of the other.
 */
export function lookalikeKeys(text: string): string[] {
  const first = withoutSeparators(skeleton(text.toLowerCase()));
  const second = withoutSeparators(skeleton(text).toLowerCase());
  return first === second ? [first] : [first, second];
}

/**
 * The forms near-miss distances are measured on, case and separators folded: the skeleton (so a swapped-in
 * look-alike costs nothing) and the plain letters (a skeleton spells some letters with two, m as rn, which
 * would make one typo there count as two). Two names are as near as their nearest pair of like forms.
 */
export function foldedForms(text: string): readonly [skeletonForm: string, plainForm: string] {
  return [
    withoutSeparators(skeleton(text.toLowerCase())),
    withoutSeparators(text.normalize('NFC').toLowerCase()),
  ];
}

/** The distance of two names' {@link foldedForms}: the smaller of the skeletons' and the plain forms'. */
export function foldedDistance(
  a: readonly [string, string],
  b: readonly [string, string],
  limit = Number.POSITIVE_INFINITY,
): number {
  return Math.min(editDistance(a[0], b[0], limit), editDistance(a[1], b[1], limit));
}

/**
 * The optimal string alignment distance (Damerau-Levenshtein restricted: insertions, deletions,
 * substitutions, swaps of two neighbours), by code point; stops early once it must exceed `limit`.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  const left = [...a];
  const right = [...b];
  if (Math.abs(left.length - right.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) {
        value = Math.min(value, beforePrevious[j - 2]! + 1);
      }
      current.push(value);
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[right.length]!;
}
