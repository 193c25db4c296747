import { existsSync, readFileSync, readdirSync } from 'node:fs';

/** A /proc/<pid>/status field in MiB (VmRSS: now; VmHWM: the process's peak so far); NaN once it has gone. */
export function procMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Chromium's renderer processes now (Linux). A tab's page and its workers live in one of them. */
function rendererPids(): number[] {
  if (!existsSync('/proc')) return [];
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--type=renderer')) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * The largest renderer's resident set, sampled every `everyMs` until stopped: with one page open, the
 * tab's peak memory (page, engine worker, scoring and tokenizer workers: JS heaps, buffers and WASM).
 * Null where /proc is not there (not Linux).
 */
export function sampleRendererPeak(everyMs = 250): { stop(): number | null } {
  let peak: number | null = null;
  const sample = () => {
    for (const pid of rendererPids()) {
      const mib = procMiB(pid, 'VmRSS');
      if (Number.isFinite(mib)) peak = Math.max(peak ?? 0, mib);
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
