import { type LatestEval, isStale } from '../../state/engineState.ts';
import { useEngine } from '../../state/hooks.ts';
import { pct, sig } from '../format.ts';
import { evalWhen } from '../evalWhen.ts';
import { ScoresPanel } from './ScoresPanel.tsx';
import { SelectionSummary } from './SelectionSummary.tsx';

/** A run's report says when it was taken; a requested one names the model it describes, and whether that model was replaced since. */
function When({ latest }: { latest: LatestEval }) {
  const stale = useEngine((s) => isStale(latest.model, s.models.available));
  if (latest.duringRun) return <>{evalWhen(latest)}</>;
  return (
    <span data-stale={stale}>
      {latest.model.slot} model{stale ? ' (replaced since)' : ''}
    </span>
  );
}

function Row({ latest }: { latest: LatestEval }) {
  const { report } = latest;
  const m = report.summary;
  const b = m.baselines;
  return (
    <tr data-testid={`eval-${report.set}`} data-bon={String(m.bestOfN)}>
      <th>{report.set === 'val' ? 'validation' : 'test'}</th>
      <td>
        <When latest={latest} />
      </td>
      <td className="num">{m.nGroups}</td>
      <td className="num strong">{pct(m.bestOfN)}</td>
      <td className="num">{pct(m.pairwise)}</td>
      <td className="num">{sig(m.meanMargin, 3)}</td>
      <td className="num">{pct(b.firstCandidate)}</td>
      <td className="num">{pct(b.randomExpected)}</td>
      <td className="num">{pct(b.majorityVote)}</td>
      <td className="num">{pct(b.weightedVote)}</td>
      <td className="num">{pct(b.oracle)}</td>
    </tr>
  );
}

/** The latest evaluation per set, side by side with the baselines; below, the selection rules of the selected model's latest one. */
export function EvalSummaryTable() {
  const val = useEngine((s) => s.latestEval.val);
  const test = useEngine((s) => s.latestEval.test);
  if (!val && !test) {
    return (
      <>
        <p className="muted small">No evaluation yet.</p>
        <ScoresPanel />
      </>
    );
  }
  return (
    <>
      <div className="table-scroll">
        <table className="grid-table compact">
          <thead>
            <tr>
              <th>Set</th>
              <th>When</th>
              <th>Groups</th>
              <th>Best-of-N</th>
              <th>Pairwise</th>
              <th>Margin</th>
              <th>First</th>
              <th>Random</th>
              <th>Majority</th>
              <th>Weighted</th>
              <th>Oracle</th>
            </tr>
          </thead>
          <tbody>
            {val && <Row latest={val} />}
            {test && <Row latest={test} />}
          </tbody>
        </table>
      </div>
      <SelectionSummary />
      <ScoresPanel />
    </>
  );
}
