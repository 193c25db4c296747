import type { SourceRow } from '../../engine/metrics/selectionTypes.ts';
import type { EvalSet } from '../../worker/protocols/models.ts';
import { useEngine } from '../../state/hooks.ts';
import { attr, pct, sig } from '../format.ts';

const WARN_ROW = { background: 'var(--warn-bg)' };

/** Why a source is highlighted, in the worker's figures (the rule is in engine/metrics/sources.ts). */
function FlagNote({ row }: { row: SourceRow }) {
  return (
    <p className="notice notice-warn small" role="status" data-testid="source-flag" data-source={row.source}>
      The model picks <strong>{row.source}</strong>’s answer in {pct(row.pickedShare)} of questions. A random pick would choose it in {pct(row.chanceShare)},
      and a picker that only knew which answers are right in {pct(row.earnedShare)}: its answers are picked far more often than their correctness earns. The
      verifier may be rewarding who wrote an answer (its style or length) rather than whether it is right; check by training with this source held out.
    </p>
  );
}

/** The per-source audit of the latest evaluation of `set`: nothing when its lines name no source. */
export function SourceTable({ set }: { set: EvalSet }) {
  const rows = useEngine((s) => s.latestEval[set]?.report.sources);
  if (!rows || rows.length === 0) return null;
  const flagged = rows.filter((r) => r.flagged);
  return (
    <div className="source-audit" data-testid="source-table" data-set={set}>
      <h4>By source ({set === 'val' ? 'validation' : 'test'})</h4>
      <div className="table-scroll">
        <table className="grid-table compact">
          <thead>
            <tr>
              <th>Source</th>
              <th title="Candidates written by this source">Candidates</th>
              <th title="Share of its candidates labelled correct">Correct</th>
              <th title="Share of questions where the model's pick (lowest energy) is its candidate">Picked</th>
              <th title="The share a uniformly random pick would give it">By chance</th>
              <th title="The share a picker that knows which answers are right, but not who wrote them, would give it">Earned</th>
              <th title="Pairwise accuracy among its own candidates of the same question">Pairwise</th>
              <th title="Mean energy of its correct candidates (lower = preferred)">E correct</th>
              <th title="Mean energy of its incorrect candidates">E incorrect</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.source}
                data-testid="source-row"
                data-source={r.source}
                data-candidates={r.candidates}
                data-picked-share={attr(r.pickedShare)}
                data-chance-share={attr(r.chanceShare)}
                data-pairwise={attr(r.pairwise)}
                data-flagged={r.flagged}
                style={r.flagged ? WARN_ROW : undefined}
              >
                <th>
                  {r.source}
                  {r.flagged ? ' ⚠' : ''}
                </th>
                <td className="num">{r.candidates}</td>
                <td className="num">{pct(r.shareCorrect)}</td>
                <td className="num strong">{pct(r.pickedShare)}</td>
                <td className="num">{pct(r.chanceShare)}</td>
                <td className="num">{pct(r.earnedShare)}</td>
                <td className="num">{pct(r.pairwise)}</td>
                <td className="num">{sig(r.meanEnergyCorrect, 3)}</td>
                <td className="num">{sig(r.meanEnergyIncorrect, 3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {flagged.map((r) => (
        <FlagNote key={r.source} row={r} />
      ))}
    </div>
  );
}
