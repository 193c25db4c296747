import type { SelectionReport } from '../../engine/metrics/selectionTypes.ts';
import { attr, fixed, int, pct } from '../format.ts';

/** Each generator's reliability (from labels, and from agreement alone) beside its observed correct share, and its vote weight. */
export function GeneratorTable({ selection }: { selection: SelectionReport }) {
  const table = selection.generators;
  if (!table) {
    // Reports recorded before generators, and files naming fewer than two, say why the generator votes equal majority vote.
    return selection.rules.generatorVote ? (
      <p className="muted small" data-testid="generators-none">
        The lines name fewer than two generators (the <code>source</code> field), so both generator-weighted votes are majority vote here.
      </p>
    ) : null;
  }
  return (
    <details className="generators" data-testid="generators" data-alternatives={attr(table.alternatives)} data-alternatives-free={attr(table.alternativesFree)}>
      <summary className="small">
        Generators: how often each is right, and its weight in the generator-weighted votes (K ={' '}
        {Number.isFinite(table.alternatives) ? table.alternatives : '—'} from labels, {table.alternativesFree} without)
      </summary>
      <table className="grid-table compact">
        <thead>
          <tr>
            <th>Generator</th>
            <th className="num">Candidates</th>
            <th className="num">Right (observed)</th>
            <th className="num">Reliability (labels)</th>
            <th className="num">Reliability (no labels)</th>
            <th className="num">Weight</th>
            <th className="num">Weight (no labels)</th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map((r) => (
            <tr
              key={r.source}
              data-testid="generator-row"
              data-source={r.source}
              data-observed={attr(r.observedCorrect)}
              data-reliability={attr(r.reliability)}
              data-reliability-free={attr(r.reliabilityFree)}
              data-weight={attr(r.weight)}
              data-weight-free={attr(r.weightFree)}
            >
              <th>{r.source}</th>
              <td className="num">{int(r.candidates)}</td>
              <td className="num">{pct(r.observedCorrect)}</td>
              <td className="num">{pct(r.reliability)}</td>
              <td className="num">{pct(r.reliabilityFree)}</td>
              <td className="num">{fixed(r.weight, 2)}</td>
              <td className="num">{fixed(r.weightFree, 2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
