/**
 * Documents with their scores in ascending doc id, as a term's matches come out of the index (FTS
 * rowids are doc id major): terms intersect by one merge, without hashing every match.
 */
export class DocScores {
  private constructor(
    readonly docs: readonly number[],
    readonly scores: readonly number[],
  ) {}

  static readonly EMPTY = new DocScores([], []);

  /** From doc ids and scores already in ascending doc id order. */
  static ordered(docs: readonly number[], scores: readonly number[]): DocScores {
    return new DocScores(docs, scores);
  }

  static fromMap(byDoc: ReadonlyMap<number, number>): DocScores {
    const docs = [...byDoc.keys()].sort((a, b) => a - b);
    return new DocScores(docs, docs.map((d) => byDoc.get(d) ?? 0));
  }

  get size(): number {
    return this.docs.length;
  }

  /** The documents in both, each scored with the sum of its two scores. */
  intersect(other: DocScores): DocScores {
    const docs: number[] = [];
    const scores: number[] = [];
    let i = 0;
    let j = 0;
    while (i < this.docs.length && j < other.docs.length) {
      const mine = this.docs[i];
      const theirs = other.docs[j];
      if (mine < theirs) i++;
      else if (mine > theirs) j++;
      else {
        docs.push(mine);
        scores.push(this.scores[i] + other.scores[j]);
        i++;
        j++;
      }
    }
    return new DocScores(docs, scores);
  }
}
