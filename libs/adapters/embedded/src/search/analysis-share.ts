/**
 * During a full rebuild, which documents' fields the thread that projects them analyses before
 * sending them to the search writer thread (`rowsOfFields`), and which it leaves to the writer: a
 * share kept where both threads are about as busy. On copies of one 100k data directory the writer
 * was the bound and analysing every document ahead made the rebuild 7 to 8% faster; after a full
 * 100k ingest in the same process the projecting thread is slower, and analysing every document
 * made it the bound (0.86 of a core, the writer 0.64; 15,287 aspects/s). With the share balanced
 * (it settled at 0.8 to 0.9 on the copies) the same rebuild ran 18,016/s, the threads 0.80 and 0.85.
 */

/** The share moves by a tenth after each batch in which one thread was busier than the other by more than MARGIN. */
const STEPS = 10;
const MARGIN = 0.05;

export class AnalysisShare {
  /** In tenths, so that counting never drifts. */
  private steps = STEPS / 2;
  private credit = 0;

  /** Whether the next document is analysed by the sending thread: the share of them, spread evenly. */
  takesNext(): boolean {
    this.credit += this.steps;
    if (this.credit < STEPS) return false;
    this.credit -= STEPS;
    return true;
  }

  /** After a batch: the share of its time each thread was busy since the last batch. */
  balance(writerBusy: number, ownBusy: number): void {
    if (writerBusy > ownBusy + MARGIN) this.steps = Math.min(STEPS, this.steps + 1);
    else if (ownBusy > writerBusy + MARGIN) this.steps = Math.max(0, this.steps - 1);
  }
}
