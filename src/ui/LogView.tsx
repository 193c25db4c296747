import { useEngine } from '../state/hooks.ts';

/** The worker's `log` events, newest last, folded away by default. */
export function LogView() {
  const log = useEngine((s) => s.log);
  const warnings = log.filter((l) => l.level === 'warn').length;
  return (
    <details className="log panel">
      <summary>
        Engine log ({log.length} messages{warnings > 0 ? `, ${warnings} warnings` : ''})
      </summary>
      <ol>
        {log.map((l) => (
          <li key={l.id} className={`log-${l.level}`}>
            {l.message}
          </li>
        ))}
      </ol>
    </details>
  );
}
