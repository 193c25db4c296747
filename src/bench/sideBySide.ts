/**
 * The app's figures and Python's side by side (selection.bench.ts): each comparison recorded against the
 * tolerance, the failures and the largest difference kept, and the tables printed per reliability bin and
 * per source.
 */
import type { ReliabilityBin, SourceRow } from '../engine/metrics/selectionTypes.ts';

export const num = (x: number | null | undefined): number => (x === null || x === undefined ? NaN : x);
export const diffOf = (a: number, b: number | null | undefined): number => {
  const p = num(b);
  return Number.isNaN(a) && Number.isNaN(p) ? 0 : Math.abs(a - p);
};
export const f4 = (x: number | null | undefined) => (Number.isNaN(num(x)) ? '   -  ' : num(x).toFixed(4));
export const ci = (c: { lo: number | null; hi: number | null }) => `[${f4(c.lo)}, ${f4(c.hi)}]`;

/** A source's row as Python prints it: a figure it cannot compute is null. */
export type PyRow<T> = { [K in keyof T]: T[K] extends number ? number | null : T[K] };

export class SideBySide {
  worst = 0;
  readonly failures: string[] = [];
  constructor(private readonly tolerance: number) {}

  /** Largest |app − python| over `pairs`, recorded against the tolerance under `name`. */
  compare(name: string, pairs: Array<[number, number | null | undefined]>): string {
    const d = Math.max(0, ...pairs.map(([a, p]) => diffOf(a, p)));
    const bad = Number.isNaN(d) || d > this.tolerance;
    if (bad) this.failures.push(`${name}: |Δ| ${d.toExponential(2)}`);
    this.worst = Math.max(this.worst, Number.isNaN(d) ? Infinity : d);
    return `${d.toExponential(1)}${bad ? ' !' : ''}`;
  }

  sameText(name: string, a: string, p: string | undefined): string {
    if (a !== p) this.failures.push(`${name} differs`);
    return a === p ? 'same' : `DIFFERS — python: ${p}`;
  }

  binRows(label: string, a: ReliabilityBin[], p: ReliabilityBin[]): void {
    console.log(`reliability (${label}): bin | count | confidence | accuracy | python count, confidence, accuracy | max |Δ|`);
    a.forEach((b, k) => {
      const q = p[k];
      const d = this.compare(`${label} bin ${k}`, [
        [b.count, q?.count],
        [b.confidence, q?.confidence],
        [b.accuracy, q?.accuracy],
      ]);
      console.log(
        `  ${b.lo.toFixed(1)}–${b.hi.toFixed(1)} | ${String(b.count).padStart(5)} | ${f4(b.confidence)}     | ${f4(b.accuracy)}   | ${q?.count}, ${f4(q?.confidence)}, ${f4(q?.accuracy)} | ${d}`,
      );
    });
  }

  sourceRows(app: SourceRow[], py: PyRow<SourceRow>[]): void {
    console.log('\nper source: source | candidates | share correct | picked | chance | earned | pairwise | E correct | E incorrect | flagged | python max |Δ|');
    const pySources = new Map(py.map((r) => [r.source, r]));
    const width = Math.max(6, ...app.map((r) => r.source.length));
    for (const r of app) {
      const p = pySources.get(r.source);
      const fields = [
        'candidates',
        'shareCorrect',
        'pickedShare',
        'chanceShare',
        'earnedShare',
        'picks',
        'pairwise',
        'meanEnergyCorrect',
        'meanEnergyIncorrect',
      ] as const;
      const d = p
        ? this.compare(
            `source ${r.source}`,
            fields.map((k) => [r[k], p[k]]),
          )
        : 'missing in python';
      if (!p) this.failures.push(`source ${r.source} missing in python`);
      else if (p.flagged !== r.flagged) this.failures.push(`source ${r.source}: flagged differs`);
      console.log(
        `  ${r.source.padEnd(width)} | ${String(r.candidates).padStart(5)} | ${f4(r.shareCorrect)} | ${f4(r.pickedShare)} | ${f4(r.chanceShare)} | ${f4(r.earnedShare)} | ${f4(r.pairwise)} | ${r.meanEnergyCorrect.toFixed(3)} | ${r.meanEnergyIncorrect.toFixed(3)} | ${r.flagged ? 'FLAGGED' : '-'} | ${d}`,
      );
    }
    if (py.length !== app.length) this.failures.push(`sources: app ${app.length} rows, python ${py.length}`);
  }
}
