/**
 * The partial-document upsert of a search document: sets the given fields, removes those given
 * as null. A write that changes nothing is a no-op, so replays do not rewrite documents.
 */

const SOURCE = `
boolean changed = false;
for (def entry : params.fields.entrySet()) {
  def key = entry.getKey();
  def value = entry.getValue();
  if (value == null) {
    if (ctx._source.containsKey(key)) { ctx._source.remove(key); changed = true; }
  } else if (!value.equals(ctx._source.get(key))) {
    ctx._source.put(key, value);
    changed = true;
  }
}
if (!changed) { ctx.op = 'noop'; }
`.trim();

/** The body of an update request (alone or in a bulk) that upserts `fields`. */
export function fieldUpsertBody(fields: Record<string, unknown>): Record<string, unknown> {
  return { script: { lang: 'painless', source: SOURCE, params: { fields } }, scripted_upsert: true, upsert: {} };
}

/** Concurrent updates of one document (several consumers) are retried rather than failed. */
export const UPDATE_RETRIES = 5;
