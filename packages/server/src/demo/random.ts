/**
 * A small seeded pseudo-random generator (sfc32, seeded through splitmix32) so that the demo catalogue is
 * the same for the same seed on every machine. Math.random is never used for demo data.
 */
export class DemoRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...seeds: number[]) {
    let state = 0x9e3779b9;
    for (const seed of seeds) state = splitmix32(state ^ Math.imul(seed | 0, 0x85ebca6b));
    this.a = splitmix32(state + 1);
    this.b = splitmix32(state + 2);
    this.c = splitmix32(state + 3);
    this.d = splitmix32(state + 4);
    for (let round = 0; round < 12; round++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Cannot pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let point = this.next() * total;
    for (const [value, weight] of entries) {
      point -= weight;
      if (point < 0) return value;
    }
    return (entries.at(-1) as readonly [T, number])[0];
  }

  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const result: T[] = [];
    for (let index = 0; index < count && pool.length > 0; index++) {
      const position = Math.floor(this.next() * pool.length);
      result.push(pool[position] as T);
      pool[position] = pool[pool.length - 1] as T;
      pool.pop();
    }
    return result;
  }

  /** `count` distinct integers from [0, size), without building the range (Floyd's algorithm). */
  distinctIndexes(size: number, count: number): number[] {
    const chosen = new Set<number>();
    for (let j = size - Math.min(count, size); j < size; j++) {
      const candidate = this.int(0, j);
      chosen.add(chosen.has(candidate) ? j : candidate);
    }
    return [...chosen];
  }

  /** Normally distributed (Box-Muller). */
  normal(mean: number, deviation: number): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + deviation * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A Poisson-distributed count with mean `lambda` (exact for small means, normal beyond). */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 40) return Math.max(0, Math.round(this.normal(lambda, Math.sqrt(lambda))));
    const limit = Math.exp(-lambda);
    let count = 0;
    let product = this.next();
    while (product > limit) {
      count++;
      product *= this.next();
    }
    return count;
  }
}

function splitmix32(value: number): number {
  let z = (value + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}
