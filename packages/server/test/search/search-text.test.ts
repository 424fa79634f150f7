import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedMistakes,
  normalizeSearchText,
  parseSearchVector,
  prefixRange,
  searchWords,
  TypoDictionary,
  typingDistance,
} from '../../src/search/search-text';

/** Optimal string alignment distance, written the textbook way over the whole table. */
function referenceDistance(a: string, b: string): number {
  const table: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    table.push([]);
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        table[i]![j] = i + j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(table[i - 1]![j]! + 1, table[i]![j - 1]! + 1, table[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, table[i - 2]![j - 2]! + 1);
      }
      table[i]![j] = best;
    }
  }
  return table[a.length]![b.length]!;
}

function dictionaryOf(words: readonly string[]): TypoDictionary {
  const dictionary = new TypoDictionary();
  for (const word of words) dictionary.add(word);
  return dictionary;
}

/** Words over a few letters, so that random words are often near one another. */
const shortWord = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength, maxLength });

describe('normalizeSearchText', () => {
  it('trims, collapses inner whitespace and caps the length at 200', () => {
    expect(normalizeSearchText('  git \t\n toolbox  ')).toBe('git toolbox');
    expect(normalizeSearchText(undefined)).toBe('');
    expect(normalizeSearchText('x'.repeat(300))).toHaveLength(200);
  });
});

describe('parseSearchVector', () => {
  it('reads each lexeme with its heaviest field: A=3, B=2, C=1', () => {
    const lexemes = parseSearchVector("'flask':1A,8B 'run':25C 'web':3B 'framework':4C,30B");
    expect(Object.fromEntries(lexemes)).toEqual({ flask: 3, run: 1, web: 2, framework: 2 });
  });

  it('takes the heaviest field wherever it stands among the positions', () => {
    expect(parseSearchVector("'git':9C,12C,2A").get('git')).toBe(3);
  });

  it('gives field D (0) to lexemes without positions and to positions without a weight letter', () => {
    const lexemes = parseSearchVector("'plain' 'unweighted':4,7 'named':1A");
    expect(lexemes.get('plain')).toBe(0);
    expect(lexemes.get('unweighted')).toBe(0);
    expect(lexemes.get('named')).toBe(3);
  });

  it("reads a quote written as '' inside a lexeme", () => {
    const lexemes = parseSearchVector("'o''reilly':1A 'it''s':5C 'next':6C");
    expect(lexemes.get("o'reilly")).toBe(3);
    expect(lexemes.get("it's")).toBe(1);
    expect(lexemes.get('next')).toBe(1);
  });

  it('reads a lexeme that ends with an escaped quote without swallowing the next one', () => {
    const lexemes = parseSearchVector("'rock''':1A 'roll':2A");
    expect(lexemes.get("rock'")).toBe(3);
    expect(lexemes.get('roll')).toBe(3);
  });

  it('also gives the words of a dotted lexeme, in the same field', () => {
    const lexemes = parseSearchVector("'node.js':2A 'org.example.tool':5B 'editor':7C");
    expect(lexemes.get('node.js')).toBe(3);
    expect(lexemes.get('node')).toBe(3);
    expect(lexemes.get('js')).toBe(3);
    expect(lexemes.get('org.example.tool')).toBe(2);
    expect(lexemes.get('org')).toBe(2);
    expect(lexemes.get('example')).toBe(2);
    expect(lexemes.get('tool')).toBe(2);
    expect(lexemes.get('editor')).toBe(1);
  });

  it('lets a part keep the heavier field when the word also stands on its own', () => {
    const lexemes = parseSearchVector("'tool':1A 'com.example.tool':3B 'com':9C");
    expect(lexemes.get('tool')).toBe(3);
    expect(lexemes.get('com')).toBe(2);
  });

  it('reads an empty vector as no lexemes', () => {
    expect(parseSearchVector('').size).toBe(0);
  });
});

describe('searchWords', () => {
  it('gives lower-case runs of letters and digits', () => {
    expect(searchWords('Git-Toolbox 2.0, for IntelliJ!')).toEqual([
      'git',
      'toolbox',
      '2',
      '0',
      'for',
      'intellij',
    ]);
  });

  it('keeps letters outside ASCII', () => {
    expect(searchWords('Café Übersetzer')).toEqual(['café', 'übersetzer']);
  });

  it('splits xmlIds at the dots', () => {
    expect(searchWords('org.jetbrains.kotlin')).toEqual(['org', 'jetbrains', 'kotlin']);
  });

  it('keeps only the first 8 words', () => {
    expect(searchWords('a b c d e f g h i j')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });

  it('gives nothing for text without letters or digits', () => {
    expect(searchWords('  -- !! ')).toEqual([]);
  });
});

describe('typingDistance', () => {
  it('counts two swapped neighbours as one mistake', () => {
    expect(typingDistance('dokcer', 'docker', 2)).toBe(1);
    expect(typingDistance('gti', 'git', 1)).toBe(1);
  });

  it('counts a missing, added or changed letter as one mistake', () => {
    expect(typingDistance('kotln', 'kotlin', 2)).toBe(1);
    expect(typingDistance('kottlin', 'kotlin', 2)).toBe(1);
    expect(typingDistance('kitlin', 'kotlin', 2)).toBe(1);
    expect(typingDistance('kotlin', 'kotlin', 2)).toBe(0);
  });

  it('counts two mistakes as two', () => {
    expect(typingDistance('kotn', 'kotlin', 2)).toBe(2);
    expect(typingDistance('dokcre', 'docker', 2)).toBe(2);
  });

  it('answers limit + 1 for anything farther than the limit', () => {
    expect(typingDistance('kotn', 'kotlin', 1)).toBe(2);
    expect(typingDistance('python', 'docker', 2)).toBe(3);
    expect(typingDistance('go', 'gradle', 1)).toBe(2);
    expect(typingDistance('abc', 'abc', 0)).toBe(0);
    expect(typingDistance('abc', 'abd', 0)).toBe(1);
  });

  it('agrees with a reference optimal-string-alignment distance, capped at limit + 1', () => {
    fc.assert(
      fc.property(shortWord(0, 7), shortWord(0, 7), fc.integer({ min: 0, max: 4 }), (a, b, limit) => {
        expect(typingDistance(a, b, limit)).toBe(Math.min(referenceDistance(a, b), limit + 1));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('allowedMistakes', () => {
  it('allows none under 3 letters, one from 3 to 7 and two from 8', () => {
    expect(
      ['', 'a', 'go', 'git', 'kotlin', 'plugins', 'database', 'kubernetes'].map(allowedMistakes),
    ).toEqual([0, 0, 0, 1, 1, 1, 2, 2]);
  });
});

describe('TypoDictionary', () => {
  const dictionary = dictionaryOf(['docker', 'kotlin', 'git', 'go', 'database', 'toolbox', 'gradle']);

  it('finds a 3-7 letter word one mistake away, with the distance', () => {
    expect(dictionary.near('dokcer')).toEqual(new Map([['docker', 1]]));
    expect(dictionary.near('kotln')).toEqual(new Map([['kotlin', 1]]));
    expect(dictionary.near('gti')).toEqual(new Map([['git', 1]]));
  });

  it('does not find a 3-7 letter word two mistakes away', () => {
    expect(dictionary.near('kotn').size).toBe(0);
    expect(dictionary.near('dokcre').size).toBe(0);
  });

  it('finds words two mistakes away from a word of 8 letters or more', () => {
    expect(dictionary.near('databsae')).toEqual(new Map([['database', 1]]));
    expect(dictionary.near('dtabsae')).toEqual(new Map());
    expect(dictionary.near('datbaese')).toEqual(new Map([['database', 2]]));
    expect(dictionary.near('toolboxes')).toEqual(new Map([['toolbox', 2]]));
  });

  it('finds nothing for typed words under 3 letters', () => {
    expect(dictionary.near('gt').size).toBe(0);
    expect(dictionary.near('og').size).toBe(0);
  });

  it('does not hold words under 3 letters', () => {
    expect(dictionary.near('goo').has('go')).toBe(false);
  });

  it('finds the word itself at distance 0', () => {
    expect(dictionary.near('gradle')).toEqual(new Map([['gradle', 0]]));
  });

  it('finds exactly the words within the allowed mistakes, never one farther', () => {
    fc.assert(
      fc.property(fc.uniqueArray(shortWord(1, 9), { maxLength: 30 }), shortWord(1, 9), (words, typed) => {
        const limit = allowedMistakes(typed);
        const expected = new Map<string, number>();
        if (limit > 0) {
          for (const word of words) {
            const distance = referenceDistance(typed, word);
            if (word.length >= 3 && distance <= limit) expected.set(word, distance);
          }
        }
        expect(dictionaryOf(words).near(typed)).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('prefixRange', () => {
  const sorted = ['docker', 'dockerfil', 'dot', 'git', 'gitignor', 'gitlab', 'go', 'kotlin'];

  it('gives the range of the words starting with the prefix', () => {
    expect(prefixRange(sorted, 'git')).toEqual([3, 6]);
    expect(prefixRange(sorted, 'dock')).toEqual([0, 2]);
    expect(prefixRange(sorted, 'kotlin')).toEqual([7, 8]);
  });

  it('gives an empty range where the prefix would stand when no word starts with it', () => {
    expect(prefixRange(sorted, 'gr')).toEqual([7, 7]);
    expect(prefixRange(sorted, 'a')).toEqual([0, 0]);
    expect(prefixRange(sorted, 'zzz')).toEqual([8, 8]);
    expect(prefixRange([], 'a')).toEqual([0, 0]);
  });

  it('gives every word for the empty prefix', () => {
    expect(prefixRange(sorted, '')).toEqual([0, 8]);
  });

  it('agrees with filtering a sorted list', () => {
    fc.assert(
      fc.property(fc.array(shortWord(0, 5), { maxLength: 40 }), shortWord(0, 3), (words, prefix) => {
        const list = [...words].sort();
        const [start, end] = prefixRange(list, prefix);
        expect(list.slice(start, end)).toEqual(list.filter((word) => word.startsWith(prefix)));
        expect(list.slice(0, start).every((word) => word < prefix)).toBe(true);
      }),
    );
  });
});
