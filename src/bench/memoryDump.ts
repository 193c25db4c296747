import type { Browser } from 'playwright';

interface DumpEvent {
  ph: string;
  pid: number;
  args?: { dumps?: { allocators?: Record<string, { attrs?: Record<string, { value: string; units: string }> }> } };
}

/**
 * Chromium's own account of where a process's memory goes (its memory-infra dump, as chrome://tracing
 * shows it): for each process, the effective size of each allocator (V8 heaps per isolate, malloc,
 * partition_alloc, Blink's GC heap), in MiB, largest first. `depth`: the path level reported (3: e.g.
 * v8/workers/heap, malloc/allocated_objects/partitions).
 */
export async function memoryDump(browser: Browser, depth = 3): Promise<Map<number, Array<[string, number]>>> {
  const session = await browser.newBrowserCDPSession();
  const events: DumpEvent[] = [];
  session.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as DumpEvent[])));
  const complete = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
  await session.send('Tracing.start', {
    traceConfig: {
      includedCategories: ['disabled-by-default-memory-infra'],
      excludedCategories: ['*'],
      memoryDumpConfig: { triggers: [] } as unknown as Record<string, string>,
    },
    transferMode: 'ReportEvents',
  });
  await session.send('Tracing.requestMemoryDump', { deterministic: false, levelOfDetail: 'detailed' });
  await session.send('Tracing.end');
  await complete;
  await session.detach();
  const out = new Map<number, Array<[string, number]>>();
  for (const e of events) {
    const allocators = e.args?.dumps?.allocators;
    if (e.ph !== 'v' || !allocators) continue;
    const sums = new Map<string, number>();
    for (const [name, a] of Object.entries(allocators)) {
      if (name.split('/').length !== depth) continue;
      const size = a.attrs?.effective_size ?? a.attrs?.size;
      if (!size || size.units !== 'bytes') continue;
      sums.set(name, (sums.get(name) ?? 0) + parseInt(size.value, 16) / 2 ** 20);
    }
    out.set(
      e.pid,
      [...sums].filter(([, v]) => v >= 1).sort((x, y) => y[1] - x[1]),
    );
  }
  return out;
}
