import { engineStore } from '../state/engineStore.ts';
import { useEngine } from '../state/hooks.ts';
import { EngineDownBanner } from './EngineDownBanner.tsx';

/** A dead engine first, then worker errors, each naming the command that failed; dismissing one changes nothing else. */
export function ErrorBanners() {
  const errors = useEngine((s) => s.errors);
  const down = useEngine((s) => s.engineDown !== null);
  if (errors.length === 0 && !down) return null;
  return (
    <div className="banners" aria-live="polite">
      <EngineDownBanner />
      {errors.map((e) => (
        <div key={e.id} className="notice notice-error" role="alert" data-testid="error-banner" data-command={e.command ?? ''}>
          <span>
            <strong>{e.command ? `“${e.command}” failed` : 'Engine error'}</strong>: {e.message}
          </span>
          <button type="button" className="dismiss" aria-label="Dismiss" onClick={() => engineStore.getState().dismissError(e.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
