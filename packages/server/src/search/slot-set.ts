/**
 * A set of small whole numbers (the slots of the search index) as a bitmap: membership, intersection and
 * counting cost one machine word per 32 slots, which keeps filters and totals over the whole catalogue in
 * microseconds.
 */
export class SlotSet {
  words: Uint32Array;

  constructor(capacity = 0) {
    this.words = new Uint32Array(Math.ceil(capacity / 32));
  }

  /** Room for slots below `capacity` (existing members are kept). */
  grow(capacity: number): void {
    const needed = Math.ceil(capacity / 32);
    if (needed <= this.words.length) return;
    const words = new Uint32Array(needed);
    words.set(this.words);
    this.words = words;
  }

  has(slot: number): boolean {
    const word = this.words[slot >>> 5];
    return word !== undefined && (word & (1 << (slot & 31))) !== 0;
  }

  add(slot: number): void {
    this.grow(slot + 1);
    this.words[slot >>> 5]! |= 1 << (slot & 31);
  }

  delete(slot: number): void {
    const index = slot >>> 5;
    if (index < this.words.length) this.words[index]! &= ~(1 << (slot & 31));
  }

  set(slot: number, member: boolean): void {
    if (member) this.add(slot);
    else this.delete(slot);
  }

  clone(): SlotSet {
    const copy = new SlotSet();
    copy.words = this.words.slice();
    return copy;
  }

  /** Keeps only the members also in `other` (in place). */
  intersect(other: SlotSet): this {
    const mine = this.words;
    const theirs = other.words;
    for (let index = 0; index < mine.length; index++) mine[index]! &= theirs[index] ?? 0;
    return this;
  }

  /** Adds every member of `other` (in place). */
  unite(other: SlotSet): this {
    this.grow(other.words.length * 32);
    const mine = this.words;
    const theirs = other.words;
    for (let index = 0; index < theirs.length; index++) mine[index]! |= theirs[index]!;
    return this;
  }

  /** Removes every member of `other` (in place). */
  subtract(other: SlotSet): this {
    const mine = this.words;
    const theirs = other.words;
    const length = Math.min(mine.length, theirs.length);
    for (let index = 0; index < length; index++) mine[index]! &= ~theirs[index]!;
    return this;
  }

  get size(): number {
    let count = 0;
    for (const word of this.words) count += bitCount(word);
    return count;
  }

  /** How many members this set shares with `other`, without building the intersection. */
  countShared(other: SlotSet): number {
    const mine = this.words;
    const theirs = other.words;
    const length = Math.min(mine.length, theirs.length);
    let count = 0;
    for (let index = 0; index < length; index++) count += bitCount(mine[index]! & theirs[index]!);
    return count;
  }

  /** The members in increasing order. */
  *[Symbol.iterator](): IterableIterator<number> {
    const words = this.words;
    for (let index = 0; index < words.length; index++) {
      let word = words[index]!;
      while (word !== 0) {
        const lowest = word & -word;
        yield index * 32 + (31 - Math.clz32(lowest));
        word ^= lowest;
      }
    }
  }
}

function bitCount(word: number): number {
  let value = word - ((word >>> 1) & 0x55555555);
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333);
  return (((value + (value >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
