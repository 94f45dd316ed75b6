/**
 * How values and query text become words, for every search engine: the embedded one indexes these
 * words, and both answer which value of a field holds a query's words (matched fields, suggestions).
 * A word is a run of letters and digits; a compound word (`sampleKafka`, `HTTPServer`, `v2beta`) is
 * also found by its parts. Indexing runs over every field of every document written, so ASCII text,
 * nearly all of a catalog's, is split by one pass over its characters; other text by the Unicode
 * expressions below, which define the rules.
 */
import { parseUrn, UrnSyntaxError } from '@cairn/core';

const NON_WORD = /[^\p{L}\p{N}]+/u;
/** Boundaries inside a word: lower to upper, the last of several capitals before a lower, letter to digit, digit to letter. */
const CAMEL = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

const NONE = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
/** Character classes of the 128 ASCII codes. */
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) => (c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : NONE));

/** Whether an ASCII word has a compound boundary before position `i` (0 < i < word's end). */
function asciiBoundary(text: string, i: number, end: number): boolean {
  const before = ASCII_CLASS[text.charCodeAt(i - 1)];
  const at = ASCII_CLASS[text.charCodeAt(i)];
  if (before === DIGIT) return at !== DIGIT;
  if (at === DIGIT) return true;
  if (before === LOWER) return at === UPPER;
  return at === UPPER && i + 1 < end && ASCII_CLASS[text.charCodeAt(i + 1)] === LOWER;
}

interface Split {
  readonly words: string[];
  readonly parts: string[];
}

/**
 * Scans ASCII text as the expressions would split it, cutting its compound parts into `parts` and,
 * when given, its words into `words`, from `source` (the text itself, or its lower-case form: the
 * same length, for ASCII); answers how many words it has, or -1 when the text is not all ASCII.
 */
function scanAscii(text: string, source: string, words: string[] | undefined, parts: string[]): number {
  let count = 0;
  for (let i = 0; i < text.length; ) {
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 127) return -1;
      if (ASCII_CLASS[c] !== NONE) break;
    }
    const start = i;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 127) return -1;
      if (ASCII_CLASS[c] === NONE) break;
    }
    if (start === i) break;
    count++;
    words?.push(source.slice(start, i));
    let from = start;
    for (let j = start + 1; j < i; j++) {
      if (!asciiBoundary(text, j, i)) continue;
      parts.push(source.slice(from, j));
      from = j;
    }
    if (from !== start) parts.push(source.slice(from, i));
  }
  return count;
}

/** Words and compound parts of ASCII text (`scanAscii`); undefined when the text is not all ASCII. */
function asciiSplit(text: string, source: string): Split | undefined {
  const words: string[] = [];
  const parts: string[] = [];
  return scanAscii(text, source, words, parts) < 0 ? undefined : { words, parts };
}

function unicodeSplit(text: string): Split {
  const words = text.split(NON_WORD).filter((w) => w.length > 0);
  const parts = words.flatMap((w) => {
    const split = w.split(CAMEL);
    return split.length > 1 ? split : [];
  });
  return { words, parts };
}

function split(text: string): Split {
  return asciiSplit(text, text) ?? unicodeSplit(text);
}

/**
 * The words of a value in order, then the parts of its compound words, lower-cased:
 * `SampleKafkaDataset` is found by `samplekafkadataset`, by `kafka` and by the phrase `kafka dataset`.
 */
export function indexWords(text: string): string[] {
  const ascii = asciiSplit(text, text.toLowerCase());
  if (ascii) return ascii.words.concat(ascii.parts);
  const { words, parts } = unicodeSplit(text);
  return words.concat(parts).map((w) => w.toLowerCase());
}

/**
 * A text whose tokens under the word index's tokenizer (FTS5's `unicode61`: runs of letters and
 * digits, case folded) are `indexWords(text)`, in order; empty when the text has no words. ASCII
 * text is itself such a text once its compound words' parts follow it, so it is neither lower-cased
 * nor split into words only to be joined again: indexing a document made a fifth of a rebuild's
 * allocations that way (docs/performance-log.md, the forty-second session).
 */
export function indexText(text: string): string {
  const parts: string[] = [];
  const words = scanAscii(text, text, undefined, parts);
  if (words < 0) return indexWords(text).join(' ');
  if (words === 0) return '';
  return parts.length > 0 ? `${text} ${parts.join(' ')}` : text;
}

/**
 * The ways a query term can match, each a list of words that must follow each other: its whole
 * words, and, when it has compound words, their parts.
 */
export function queryForms(text: string): string[][] {
  const { words } = split(text);
  if (words.length === 0) return [];
  const whole = words.map((w) => w.toLowerCase());
  const parts = words.flatMap(partsOfWord).map((w) => w.toLowerCase());
  return parts.length === whole.length ? [whole] : [whole, parts];
}

/** A word's compound parts, or the word itself. */
function partsOfWord(word: string): string[] {
  const { parts } = split(word);
  return parts.length > 0 ? parts : [word];
}

/** Whether a value holds one of the forms: each of its words a prefix of one of the value's words. */
export function holdsWords(value: string, forms: readonly string[][]): boolean {
  const words = indexWords(value);
  return forms.some((f) => f.every((q) => words.some((w) => w.startsWith(q))));
}

/** The components a URN is found by in `field:value` search: its key parts, nested URNs' parts too. */
export function urnComponents(value: string): string[] {
  try {
    const urn = parseUrn(value);
    return urn.parts.flatMap((p) => [p, ...(p.startsWith('urn:') ? urnComponents(p) : [])]);
  } catch (err) {
    if (err instanceof UrnSyntaxError) return [];
    throw err;
  }
}

/** The scalar values of a document field (arrays spread, booleans and numbers as text). */
export function scalarValues(value: unknown): string[] {
  // Every field of every document indexed comes here, most with one string.
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return value === null || value === undefined ? [] : [scalarText(value)];
  const out: string[] = [];
  for (const v of value) if (v !== null && v !== undefined) out.push(scalarText(v));
  return out;
}

function scalarText(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}
