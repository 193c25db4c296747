import { useEngine } from '../../state/hooks.ts';
import { Stat } from '../common/Stat.tsx';
import { bytes, compact, int } from '../format.ts';

/** Parameter count and memory for the current settings, as the worker estimated them. */
export function EstimateView() {
  const est = useEngine((s) => s.estimate);
  return (
    <div className="estimate" data-testid="estimate" data-params={est?.params ?? ''}>
      <dl className="stats">
        <Stat label="Parameters" title={est ? int(est.params) : undefined}>
          {est ? compact(est.params) : '…'}
        </Stat>
        <Stat label="Training memory (est.)">{est ? bytes(est.trainingBytes) : '…'}</Stat>
        <Stat label="Largest buffer">{est ? bytes(est.largestBufferBytes) : '…'}</Stat>
      </dl>
      {est && est.warnings.length > 0 && (
        <div className="notice notice-warn" role="alert" data-testid="estimate-warnings">
          <strong>Memory warning</strong>
          <ul>
            {est.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
