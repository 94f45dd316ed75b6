/** URN patterns as regular expressions that MongoDB (PCRE) and FerretDB (Go RE2) read alike. */

const REGEX_SPECIALS = /[\\^$.*+?()[\]{}|]/g;
const ANY_CHARACTER = '[\\s\\S]';

function literal(character: string): string {
  return character.replace(REGEX_SPECIALS, '\\$&');
}

/**
 * `%` matches any run, `_` one character, `\` makes the next character literal; the pattern
 * must match the whole value. `\z` rather than `$`: PCRE's `$` also matches before a final newline.
 */
export function likeToRegex(pattern: string): string {
  // Code points, not UTF-16 units: `_` stands for one character, as both servers match it.
  const characters = Array.from(pattern);
  let regex = '^';
  for (let i = 0; i < characters.length; i++) {
    const character = characters[i]!;
    if (character === '\\' && i + 1 < characters.length) regex += literal(characters[++i]!);
    else if (character === '%') regex += `${ANY_CHARACTER}*`;
    else if (character === '_') regex += ANY_CHARACTER;
    else regex += literal(character);
  }
  return `${regex}\\z`;
}

/** The URNs of one entity type: `urn:li:<type>:...`. */
export function entityTypeRegex(entityType: string): string {
  return `^urn:li:${literal(entityType)}:`;
}
