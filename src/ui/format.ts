/** Number formatting for display only. Missing or non-finite values show as an em dash. */
const DASH = '—';

const ok = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** 0.6234 → "62.3%". */
export function pct(x: number | null | undefined, digits = 1): string {
  return ok(x) ? `${(x * 100).toFixed(digits)}%` : DASH;
}

export function fixed(x: number | null | undefined, digits = 3): string {
  return ok(x) ? x.toFixed(digits) : DASH;
}

/** Significant digits, for values of unknown scale (energies, learning rates, gradient norms). */
export function sig(x: number | null | undefined, digits = 4): string {
  if (!ok(x)) return DASH;
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return x.toExponential(digits - 1);
  return String(Number(x.toPrecision(digits)));
}

export function int(x: number | null | undefined): string {
  return ok(x) ? Math.round(x).toLocaleString('en-US') : DASH;
}

/** 53_124_097 → "53.1M". */
export function compact(x: number | null | undefined): string {
  if (!ok(x)) return DASH;
  const a = Math.abs(x);
  if (a >= 1e9) return `${(x / 1e9).toFixed(2)}B`;
  if (a >= 1e6) return `${(x / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${(x / 1e3).toFixed(1)}k`;
  return int(x);
}

export function bytes(x: number | null | undefined): string {
  if (!ok(x)) return DASH;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = x;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}

/** Seconds as "42s", "3m 05s" or "2h 07m". */
export function duration(seconds: number | null | undefined): string {
  if (!ok(seconds) || seconds < 0) return DASH;
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** Full precision for data-* attributes: tests read exact values; empty until known. */
export function attr(x: number | null | undefined): string {
  return x === null || x === undefined ? '' : String(x);
}
