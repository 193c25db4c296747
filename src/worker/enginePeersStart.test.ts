import { describe, expect, it, vi } from 'vitest';
import { inProcessPool } from '../engine/data/tokenize/tokenizePool.ts';
import type { BackendInfo, BackendName } from './backend/backendInfo.ts';
import { createEngine } from './engineCore.ts';
import type { WorkerEvent } from './protocols/events.ts';
import { Persister } from './storage/persister.ts';

// The backend as named, without starting it: Node cannot load the WASM backend's files as a browser does,
// and what is tested is what the engine does once its backend runs.
vi.mock('./backend/backend.ts', async (original) => ({
  ...(await original<object>()),
  initBackend: async (choice: BackendName): Promise<BackendInfo> => ({
    backend: choice,
    requested: choice,
    adapter: null,
    threads: 1,
    reason: 'test',
    probes: [],
  }),
}));

/** An engine on `backend` whose scoring peers count the times they are asked for; resolves once its restore is over. */
async function engineOn(backend: BackendName): Promise<{ asked: number }> {
  const counted = { asked: 0 };
  const events: WorkerEvent[] = [];
  const handle = createEngine((e) => void events.push(e), {
    tokenizePool: () => () => inProcessPool(),
    scoringPeers: () => () => (counted.asked++, []),
    persister: new Persister(Promise.resolve(null), () => undefined),
    backends: [backend],
  });
  handle({ type: 'init', backend });
  // The runs list ends the restore, which follows the backend's start and warm-up.
  for (const end = Date.now() + 20_000; !events.some((e) => e.type === 'runs') && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
  expect(events.some((e) => e.type === 'runs')).toBe(true);
  return counted;
}

describe('the scoring peers', () => {
  it('start with the WASM backend, before any file or Start: a run started at once finds them running', async () => {
    expect((await engineOn('wasm')).asked).toBe(1);
  });

  it('are not asked for on other backends', async () => {
    expect((await engineOn('cpu')).asked).toBe(0);
  });
});
