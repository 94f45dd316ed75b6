/**
 * .dockerignore's patterns as Docker reads them: paths relative to the build context, `*` and `?`
 * within one path segment, `**` across any number of them, a matched directory excluding what is
 * below it. Exceptions (`!pattern`) are not supported: the project's file has none.
 */
export function dockerIgnore(text: string): (relativePath: string) => boolean {
  const patterns = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const exception = patterns.find((p) => p.startsWith('!'));
  if (exception) throw new Error(`.dockerignore exceptions are not supported: ${exception}`);
  const regexes = patterns.map((pattern) => {
    const source = pattern
      .replace(/^\/+|\/+$/g, '')
      .split('**')
      .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))
      .join('.*');
    // A leading `**/` also matches at the top.
    return new RegExp(`^${source.replace(/^\.\*\//, '(?:.*/)?')}(?:/.*)?$`);
  });
  return (relativePath) => regexes.some((r) => r.test(relativePath));
}
