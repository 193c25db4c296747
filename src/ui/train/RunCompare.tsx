import { useEffect } from 'react';
import { useEngine } from '../../state/hooks.ts';
import type { SavedRunInfo } from '../../worker/protocol.ts';
import { requestRunHistory } from '../commands.ts';
import { fixed } from '../format.ts';

type Row = [label: string, value: (r: SavedRunInfo) => string | number];

const ROWS: Row[] = [
  ['Dataset', (r) => r.datasetName],
  ['State', (r) => r.state],
  ['Checkpoint step', (r) => `${r.checkpointStep} / ${r.totalSteps}`],
  ['Last smoothed loss', (r) => fixed(r.lastLoss)],
  ['Best val Best-of-N', (r) => fixed(r.bestValBestOfN)],
  ['Preset', (r) => r.settings.preset],
  ['d_model', (r) => r.settings.model.dModel],
  ['Layers', (r) => r.settings.model.nLayers],
  ['Heads', (r) => r.settings.model.nHeads],
  ['FFN width', (r) => r.settings.model.ffnDim],
  ['Dropout', (r) => r.settings.model.dropout],
  ['Max length', (r) => r.settings.model.maxLen],
  ['Epochs', (r) => r.settings.epochs],
  ['Learning rate', (r) => r.settings.lr],
  ['Warmup ratio', (r) => r.settings.warmupRatio],
  ['Weight decay', (r) => r.settings.weightDecay],
  ['Max grad norm', (r) => r.settings.maxGradNorm],
  ['Seed', (r) => r.settings.seed],
  ['Groups / step', (r) => r.settings.groupsPerStep],
  ['Micro-batch', (r) => r.settings.microBatch],
  ['Init', (r) => r.settings.init],
];

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

/** Two saved runs side by side: every setting (differences marked), their final figures and loss curves. */
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
          {ROWS.map(([label, value]) => {
            const [va, vb] = [value(a), value(b)];
            return (
              <tr key={label} className={va !== vb ? 'differs' : undefined} data-differs={va !== vb}>
                <th>{label}</th>
                <td>{va}</td>
                <td>{vb}</td>
              </tr>
            );
          })}
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
