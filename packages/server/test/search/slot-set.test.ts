import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlotSet } from '../../src/search/slot-set';

/** A SlotSet holding exactly these slots. */
function slotSetOf(slots: Iterable<number>, capacity = 0): SlotSet {
  const set = new SlotSet(capacity);
  for (const slot of slots) set.add(slot);
  return set;
}

/** The members of a SlotSet, in its own iteration order. */
function membersOf(set: SlotSet): number[] {
  return [...set];
}

function sortedMembers(model: Set<number>): number[] {
  return [...model].sort((a, b) => a - b);
}

/** Slots around the word boundaries (31/32, 63/64) and well beyond the first words. */
const slotArbitrary = fc.oneof(
  fc.integer({ min: 0, max: 70 }),
  fc.integer({ min: 0, max: 400 }),
  fc.constantFrom(0, 31, 32, 63, 64, 95, 96, 127, 128),
);
const slotsArbitrary = fc.array(slotArbitrary, { maxLength: 60 });

describe('SlotSet membership', () => {
  it('holds nothing when new', () => {
    const set = new SlotSet(100);
    expect(set.size).toBe(0);
    expect(set.has(0)).toBe(false);
    expect(set.has(99)).toBe(false);
    expect(membersOf(set)).toEqual([]);
  });

  it('answers has() for added slots only, including the top bit of a word', () => {
    const set = slotSetOf([0, 5, 31, 32, 63, 64]);
    for (const slot of [0, 5, 31, 32, 63, 64]) expect(set.has(slot)).toBe(true);
    for (const slot of [1, 4, 6, 30, 33, 62, 65, 1000]) expect(set.has(slot)).toBe(false);
    expect(set.size).toBe(6);
  });

  it('forgets a deleted slot and keeps its neighbours', () => {
    const set = slotSetOf([30, 31, 32]);
    set.delete(31);
    expect(set.has(31)).toBe(false);
    expect(set.has(30)).toBe(true);
    expect(set.has(32)).toBe(true);
    expect(set.size).toBe(2);
  });

  it('ignores deleting a slot it never had room for', () => {
    const set = slotSetOf([3]);
    set.delete(5000);
    expect(membersOf(set)).toEqual([3]);
  });

  it('set() adds or deletes as asked', () => {
    const set = new SlotSet();
    set.set(40, true);
    set.set(41, true);
    set.set(40, false);
    set.set(900, false);
    expect(membersOf(set)).toEqual([41]);
  });

  it('counts adding the same slot twice once', () => {
    const set = slotSetOf([7, 7, 7]);
    expect(set.size).toBe(1);
  });
});

describe('SlotSet growth', () => {
  it('grows when a slot past its capacity is added, keeping the members it had', () => {
    const set = slotSetOf([1, 31], 32);
    set.add(32);
    set.add(1000);
    expect(membersOf(set)).toEqual([1, 31, 32, 1000]);
    expect(set.has(999)).toBe(false);
  });

  it('keeps its members when grown explicitly, and never shrinks', () => {
    const set = slotSetOf([2, 40]);
    set.grow(10_000);
    expect(set.has(9_999)).toBe(false);
    set.add(9_999);
    set.grow(1);
    expect(membersOf(set)).toEqual([2, 40, 9_999]);
  });

  it('gives a clone its own members: changing one leaves the other alone', () => {
    const original = slotSetOf([1, 2, 3]);
    const copy = original.clone();
    copy.add(500);
    copy.delete(1);
    original.add(4);
    expect(membersOf(original)).toEqual([1, 2, 3, 4]);
    expect(membersOf(copy)).toEqual([2, 3, 500]);
  });
});

describe('SlotSet against a Set model', () => {
  it('agrees with a Set after any sequence of add, delete and set', () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), slot: slotArbitrary }),
      fc.record({ kind: fc.constant('delete' as const), slot: slotArbitrary }),
      fc.record({ kind: fc.constant('set' as const), slot: slotArbitrary, member: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.nat({ max: 200 }), fc.array(operation, { maxLength: 80 }), (capacity, operations) => {
        const set = new SlotSet(capacity);
        const model = new Set<number>();
        for (const step of operations) {
          if (step.kind === 'add') {
            set.add(step.slot);
            model.add(step.slot);
          } else if (step.kind === 'delete') {
            set.delete(step.slot);
            model.delete(step.slot);
          } else {
            set.set(step.slot, step.member);
            if (step.member) model.add(step.slot);
            else model.delete(step.slot);
          }
        }
        expect(membersOf(set)).toEqual(sortedMembers(model));
        expect(set.size).toBe(model.size);
        for (let slot = 0; slot <= 410; slot++) expect(set.has(slot)).toBe(model.has(slot));
      }),
    );
  });

  it('intersect keeps exactly the shared members, whichever set is longer', () => {
    fc.assert(
      fc.property(slotsArbitrary, slotsArbitrary, (left, right) => {
        const other = slotSetOf(right);
        const result = slotSetOf(left).intersect(other);
        const expected = new Set(left.filter((slot) => right.includes(slot)));
        expect(membersOf(result)).toEqual(sortedMembers(expected));
        expect(result.size).toBe(expected.size);
        // The argument is left as it was.
        expect(membersOf(other)).toEqual(sortedMembers(new Set(right)));
      }),
    );
  });

  it('unite holds every member of both, whichever set is longer', () => {
    fc.assert(
      fc.property(slotsArbitrary, slotsArbitrary, (left, right) => {
        const other = slotSetOf(right);
        const result = slotSetOf(left).unite(other);
        const expected = new Set([...left, ...right]);
        expect(membersOf(result)).toEqual(sortedMembers(expected));
        expect(result.size).toBe(expected.size);
        expect(membersOf(other)).toEqual(sortedMembers(new Set(right)));
      }),
    );
  });

  it('countShared counts the shared members without changing either set', () => {
    fc.assert(
      fc.property(slotsArbitrary, slotsArbitrary, (left, right) => {
        const mine = slotSetOf(left);
        const theirs = slotSetOf(right);
        const shared = new Set(left.filter((slot) => right.includes(slot))).size;
        expect(mine.countShared(theirs)).toBe(shared);
        expect(theirs.countShared(mine)).toBe(shared);
        expect(membersOf(mine)).toEqual(sortedMembers(new Set(left)));
        expect(membersOf(theirs)).toEqual(sortedMembers(new Set(right)));
      }),
    );
  });

  it('size counts members when all 32 bits of words are set', () => {
    const full = slotSetOf(Array.from({ length: 96 }, (_, slot) => slot));
    expect(full.size).toBe(96);
    full.delete(31);
    full.delete(64);
    expect(full.size).toBe(94);
  });
});

describe('SlotSet iteration', () => {
  it('yields the members in increasing order, whatever order they were added in', () => {
    fc.assert(
      fc.property(slotsArbitrary, (slots) => {
        const set = slotSetOf(slots);
        expect(membersOf(set)).toEqual(sortedMembers(new Set(slots)));
      }),
    );
  });

  it('yields slots at the top bit of each word as themselves', () => {
    expect(membersOf(slotSetOf([95, 31, 63, 0]))).toEqual([0, 31, 63, 95]);
  });
});
