/** Counts answers by HTTP status, for the suite's summary line (the issue asks for the figures). */
export class StatusTally {
  private readonly counts = new Map<number, number>();

  add(status: number): void {
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
  }

  get total(): number {
    return [...this.counts.values()].reduce((sum, n) => sum + n, 0);
  }

  count(predicate: (status: number) => boolean): number {
    return [...this.counts].filter(([status]) => predicate(status)).reduce((sum, [, n]) => sum + n, 0);
  }

  /** "1,234 requests: 200×310 400×700 …" */
  toString(): string {
    const parts = [...this.counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    return `${this.total.toLocaleString('en-US')} requests: ${parts.join(' ')}`;
  }
}
