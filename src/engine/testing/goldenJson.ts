/**
 * The golden files shared with python/ (python/tests/golden/*.json): JSON has no NaN or ±Infinity, so they
 * are written as strings, as app_rules.json does; python/tests/util.py's dec reads them back.
 */
export const encodeGolden = (v: unknown): string => JSON.stringify(v, (_k, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x));
export const decodeGolden = (text: string): unknown => JSON.parse(text, (_k, x) => (x === 'NaN' || x === 'Infinity' || x === '-Infinity' ? Number(x) : x));

/** Rounded to tenths, for seeded energies with ties (as truncated inputs give); + 0: no -0, which JSON cannot keep. */
export const tenth = (x: number): number => Math.round(x * 10) / 10 + 0;
