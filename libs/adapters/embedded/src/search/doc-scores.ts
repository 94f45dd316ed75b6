/**
 * Documents with their scores in ascending doc id, as a term's matches come out of the index (FTS
 * rowids are doc id major): terms intersect by one merge, without hashing every match. Typed
 * arrays: a common word matches tens of thousands of documents.
 */
export class DocScores {
  private constructor(
    readonly docs: Int32Array,
    readonly scores: Float64Array,
  ) {}

  static readonly EMPTY = new DocScores(new Int32Array(0), new Float64Array(0));

  /** From doc ids and scores already in ascending doc id order (views of them are kept, not copies). */
  static ordered(docs: Int32Array, scores: Float64Array): DocScores {
    return new DocScores(docs, scores);
  }

  static fromMap(byDoc: ReadonlyMap<number, number>): DocScores {
    const docs = Int32Array.from(byDoc.keys()).sort();
    return new DocScores(docs, Float64Array.from(docs, (d) => byDoc.get(d) ?? 0));
  }

  get size(): number {
    return this.docs.length;
  }

  /** The documents in both, each scored with the sum of its two scores. */
  intersect(other: DocScores): DocScores {
    const capacity = Math.min(this.size, other.size);
    const docs = new Int32Array(capacity);
    const scores = new Float64Array(capacity);
    let n = 0;
    let i = 0;
    let j = 0;
    while (i < this.docs.length && j < other.docs.length) {
      const mine = this.docs[i];
      const theirs = other.docs[j];
      if (mine < theirs) i++;
      else if (mine > theirs) j++;
      else {
        docs[n] = mine;
        scores[n++] = this.scores[i++] + other.scores[j++];
      }
    }
    return new DocScores(docs.subarray(0, n), scores.subarray(0, n));
  }
}
