/** A one-line progress bar on stderr (redrawn in place on a terminal, every 10% otherwise). */

export class ProgressBar {
  private lastDecile = -1;

  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number, failed: number): void {
    const width = 30;
    const ratio = this.total === 0 ? 1 : done / this.total;
    const filled = Math.round(ratio * width);
    const line = `${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${this.total}${failed ? `, ${failed} failed` : ''}`;
    if (this.out.isTTY) {
      this.out.write(`\r${line}`);
      if (done === this.total) this.out.write('\n');
      return;
    }
    const decile = Math.floor(ratio * 10);
    if (decile !== this.lastDecile) {
      this.lastDecile = decile;
      this.out.write(`${line}\n`);
    }
  }
}
