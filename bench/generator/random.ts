/** A seeded pseudo-random source (mulberry32), so a catalog is the same on every run and machine. */

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `count` distinct items (fewer when the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    const picked = new Set<T>();
    for (let tries = 0; picked.size < Math.min(count, items.length) && tries < count * 10; tries++) picked.add(this.pick(items));
    return [...picked];
  }

  /** Skewed towards `min`: most tables are narrow, a few are wide. */
  skewed(min: number, max: number, power = 3): number {
    return min + Math.floor(Math.pow(this.next(), power) * (max - min + 1));
  }
}
