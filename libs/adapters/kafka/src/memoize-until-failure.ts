/** A shared promise for an async setup step; a failed attempt is forgotten so the next call retries it. */
export function memoizeUntilFailure<R>(setup: () => Promise<R>): () => Promise<R> {
  let pending: Promise<R> | undefined;
  return () => {
    if (!pending) {
      pending = setup();
      pending.catch(() => (pending = undefined));
    }
    return pending;
  };
}
