import { useEngine } from '../../state/hooks.ts';
import { int } from '../format.ts';
import { ProgressBar } from './ProgressBar.tsx';

/** Shown while an evaluation scores its candidates (slow on a weak GPU, or on a large test set). */
export function EvalProgressView() {
  const p = useEngine((s) => s.evalProgress);
  if (!p) return null;
  const what = p.set === 'val' ? 'validation' : 'test set';
  return <ProgressBar value={p.done} max={p.total} label={`scoring the ${what}: ${int(p.done)} / ${int(p.total)} candidates`} testId="eval-progress" />;
}
