/** Names, descriptions and column paths from the vocabulary. */
import type { Random } from './random';
import { COLUMN_SUFFIXES, COLUMN_WORDS, DESCRIPTION_WORDS } from './vocabulary';

export function sentence(random: Random, min: number, max: number): string {
  const words = Array.from({ length: random.int(min, max) }, () => random.pick(DESCRIPTION_WORDS));
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

/** `count` distinct column names, e.g. `customer_id`, `order_amount_2`. */
export function columnNames(random: Random, count: number): string[] {
  const names = new Set<string>();
  while (names.size < count) {
    const base = `${random.pick(COLUMN_WORDS)}${random.chance(0.5) ? `_${random.pick(COLUMN_WORDS)}` : ''}${random.pick(COLUMN_SUFFIXES)}`;
    names.add(names.has(base) ? `${base}_${names.size}` : base);
  }
  return [...names];
}

export function title(words: string[]): string {
  return words.map((w) => `${w[0]!.toUpperCase()}${w.slice(1)}`).join(' ').replace(/_/g, ' ');
}
