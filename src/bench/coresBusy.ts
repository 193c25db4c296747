import { existsSync, readFileSync } from 'node:fs';

/** Busy and total jiffies of every core together (/proc/stat's first line; idle and iowait count as not busy). */
function cpuJiffies(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - fields[3] - (fields[4] ?? 0), total };
}

/**
 * When the machine's cores first all work: /proc/stat sampled every `everyMs` from now until stopped, and
 * the time (seconds from `since`, a performance.now()) at which a run of `sustain` samples in a row was at
 * least `share` busy over every core. Null where /proc is not there, or if it never happened. The bench
 * runs nothing else meanwhile, so the tab's threads are what keeps the cores busy.
 */
export function watchCoresBusy(since: number, everyMs = 100, share = 0.9, sustain = 3): { stop(): number | null } {
  if (!existsSync('/proc/stat')) return { stop: () => null };
  let last = cpuJiffies();
  let lastAt = performance.now();
  let run = 0;
  let runStart = 0;
  let found: number | null = null;
  const timer = setInterval(() => {
    const now = cpuJiffies();
    const at = performance.now();
    const busy = (now.busy - last.busy) / Math.max(1, now.total - last.total);
    if (found === null && busy >= share) {
      if (run++ === 0) runStart = lastAt;
      if (run >= sustain) found = (runStart - since) / 1000;
    } else run = 0;
    last = now;
    lastAt = at;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return found;
    },
  };
}
