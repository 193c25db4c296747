import type { IngestProgressEvent } from '../../worker/protocols/data.ts';
import { ProgressBar } from '../common/ProgressBar.tsx';
import { bytes, duration, int } from '../format.ts';

/** Reading counts bytes, tokenizing counts candidates: the label says which. */
export function IngestProgressView(props: { progress: IngestProgressEvent | null; testId: string }) {
  const p = props.progress;
  if (!p) return null;
  const amount = p.phase === 'reading' ? `${bytes(p.done)} / ${bytes(p.total)}` : `${int(p.done)} / ${int(p.total)} candidates`;
  const label = `${p.phase === 'reading' ? 'Reading' : 'Tokenizing'} ${amount} · ${int(p.lines)} lines · ETA ${duration(p.etaSeconds)}`;
  return <ProgressBar value={p.done} max={p.total} label={label} testId={props.testId} />;
}
