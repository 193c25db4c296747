import { useEffect } from 'react';
import { useEngine } from '../../state/hooks.ts';
import type { SavedRunInfo } from '../../worker/protocols/training.ts';
import { requestRunHistory } from '../../client/commands.ts';
import { compareRows } from './runCompareRows.ts';

const W = 260;
const H = 90;

/** One run's smoothed loss, on a y-range shared by both runs so their heights compare. */
function LossCurve({ points, yMin, yMax, xMax, testId }: { points: Array<[number, number]>; yMin: number; yMax: number; xMax: number; testId: string }) {
  const span = yMax - yMin || 1;
  const path = points.map(([x, y]) => `${((x / Math.max(1, xMax)) * W).toFixed(1)},${(H - ((y - yMin) / span) * H).toFixed(1)}`).join(' ');
  return (
    <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label="smoothed training loss" data-testid={testId} data-points={points.length}>
      <polyline points={path} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}

/** Two saved runs side by side: what each trained (differences marked), their final figures and loss curves. */
export function RunCompare({ a, b }: { a: SavedRunInfo; b: SavedRunInfo }) {
  const histories = useEngine((s) => s.runHistories);
  useEffect(() => {
    requestRunHistory(a.id);
    requestRunHistory(b.id);
  }, [a.id, b.id, a.checkpointStep, b.checkpointStep]);
  const ha = histories[a.id];
  const hb = histories[b.id];
  const all = [...(ha?.loss ?? []), ...(hb?.loss ?? [])];
  const ys = all.map(([, y]) => y).filter(Number.isFinite);
  const yMin = ys.length ? Math.min(...ys) : 0;
  const yMax = ys.length ? Math.max(...ys) : 1;
  const xMax = Math.max(a.totalSteps, b.totalSteps);
  return (
    <div className="run-compare" data-testid="run-compare">
      <table>
        <tbody>
          {compareRows(a, b).map((row) => (
            <tr key={row.label} className={row.differs ? 'differs' : undefined} data-differs={row.differs}>
              <th>{row.label}</th>
              <td>{row.a}</td>
              <td>{row.b}</td>
            </tr>
          ))}
          <tr>
            <th>Smoothed loss</th>
            <td>{ha && <LossCurve points={ha.loss} yMin={yMin} yMax={yMax} xMax={xMax} testId="compare-loss-a" />}</td>
            <td>{hb && <LossCurve points={hb.loss} yMin={yMin} yMax={yMax} xMax={xMax} testId="compare-loss-b" />}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
