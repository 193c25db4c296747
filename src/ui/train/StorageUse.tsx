import { useEffect, useState } from 'react';
import { bytes } from '../format.ts';

interface Use {
  usage: number;
  quota: number;
  persisted: boolean;
}

let persistAsked: Promise<boolean> | null = null;

/** Asks once per page for persistent storage (only the page can: persist() is not offered to workers). */
function askPersist(): Promise<boolean> {
  persistAsked ??= navigator.storage?.persist ? navigator.storage.persist().catch(() => false) : Promise.resolve(false);
  return persistAsked;
}

/** The browser's storage used by the app and its quota, refreshed when the number of saved runs changes. */
export function StorageUse({ runs }: { runs: number }) {
  const [use, setUse] = useState<Use | null>(null);
  useEffect(() => {
    if (!navigator.storage?.estimate) return;
    let live = true;
    void Promise.all([navigator.storage.estimate(), askPersist()]).then(([e, persisted]) => {
      if (live) setUse({ usage: e.usage ?? 0, quota: e.quota ?? 0, persisted });
    });
    return () => {
      live = false;
    };
  }, [runs]);
  if (!use) return null;
  return (
    <p className="muted small" data-testid="storage-use" data-usage={use.usage} data-quota={use.quota}>
      Storage: {bytes(use.usage)} of {bytes(use.quota)} used{use.persisted ? ' (persistent)' : ' (the browser may clear it when space runs low)'}
    </p>
  );
}
