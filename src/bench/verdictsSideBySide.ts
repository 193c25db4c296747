/**
 * The report's verdicts side by side (selection.bench.ts): each rule against majority vote with its exact
 * test, what the energy adds, and the generators' table, app against Python.
 */
import type { SelectionReport } from '../engine/metrics/selectionTypes.ts';
import { type SideBySide, ci, f4 } from './sideBySide.ts';

export function printVerdicts(side: SideBySide, s: SelectionReport, ps: SelectionReport): void {
  console.log(
    '\nversus majority vote: rule | diff, 95% interval (fitted rules widened by further cross-fits), differing, p, Holm-adjusted p, real | python | max |Δ|',
  );
  s.versusMajority.forEach((v, k) => {
    const p = ps.versusMajority[k];
    const d = side.compare(`versus ${v.rule}`, [
      [v.diff, p?.diff],
      [v.ci.lo, p?.ci.lo],
      [v.ci.hi, p?.ci.hi],
      [v.differing, p?.differing],
      [v.p, p?.p],
      [v.pAdjusted, p?.pAdjusted],
    ]);
    if (v.real !== p?.real) side.failures.push(`versus ${v.rule}: real differs`);
    console.log(
      `  ${v.rule.padEnd(17)} | ${f4(v.diff)} ${ci(v.ci)} ${String(v.differing).padStart(4)} p ${f4(v.p)} adj ${f4(v.pAdjusted)} ${v.real ? 'real' : 'not real'} | ${f4(p?.diff)} ${ci(p?.ci ?? { lo: null, hi: null })} ${p?.real ? 'real' : 'not real'} | ${d}`,
    );
  });
  const eg = s.energyGain;
  const peg = ps.energyGain;
  console.log(
    `energy gain (${eg?.rule} vs ${eg?.versus}): ${f4(eg?.diff)} ${ci(eg?.ci ?? { lo: NaN, hi: NaN })} p ${f4(eg?.p)} | python ${f4(peg?.diff)} | ${side.compare(
      'energy gain',
      [
        [eg?.diff ?? NaN, peg?.diff],
        [eg?.ci.lo ?? NaN, peg?.ci.lo],
        [eg?.ci.hi ?? NaN, peg?.ci.hi],
        [eg?.p ?? NaN, peg?.p],
      ],
    )}`,
  );
  console.log(`  ${eg?.sentence} — ${side.sameText('energy gain sentence', eg?.sentence ?? '', peg?.sentence)}`);
  const gt = s.generators;
  const pgt = ps.generators;
  if (gt || pgt) {
    console.log(
      `generators (K ${gt?.alternatives} from labels, ${gt?.alternativesFree} without): source | candidates | observed | reliability | no labels | weight | weight no labels | python max |Δ|`,
    );
    const pyRowsBy = new Map((pgt?.rows ?? []).map((r) => [r.source, r]));
    for (const r of gt?.rows ?? []) {
      const p = pyRowsBy.get(r.source);
      const fields = ['candidates', 'observedCorrect', 'reliability', 'reliabilityFree', 'weight', 'weightFree'] as const;
      const d = p
        ? side.compare(
            `generator ${r.source}`,
            fields.map((k) => [r[k], p[k]]),
          )
        : 'missing in python';
      if (!p) side.failures.push(`generator ${r.source} missing in python`);
      console.log(
        `  ${r.source.padEnd(24)} | ${String(r.candidates).padStart(5)} | ${f4(r.observedCorrect)} | ${f4(r.reliability)} | ${f4(r.reliabilityFree)} | ${f4(r.weight)} | ${f4(r.weightFree)} | ${d}`,
      );
    }
  }
}
