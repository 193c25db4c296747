/**
 * What a model file records for later use (its last validation's probability map, with the generator weights it
 * learnt), read as untrusted input (any tool may have written it): taken only when whole. The Python twin is
 * python/eorm/metrics/recorded_map.py.
 */
import type { GeneratorWeights } from './generators/generators.ts';
import { PRIMARY_VERIFIER_RULE, SELECTION_RULES } from './rules.ts';
import { SELECTOR_FEATURES } from './selector.ts';
import type { ProbabilityMap } from './selectionTypes.ts';

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * A selector's coefficients for `fields` named fields (one each after SELECTOR_FEATURES); one recorded before
 * the generator feature (5 coefficients, no field) reads as one whose generator coefficient is 0.
 */
export function selectorCoefficients(v: unknown, fields = 0): number[] | null {
  if (!Array.isArray(v) || !v.every(finite)) return null;
  if (v.length === SELECTOR_FEATURES.length + fields) return v as number[];
  if (fields === 0 && v.length === SELECTOR_FEATURES.length - 1) return [...(v as number[]), 0];
  return null;
}

/** Recorded selector field names (untrusted): distinct non-empty strings, else null. */
function readFieldNames(v: unknown): string[] | null {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((f) => typeof f === 'string' && f !== '') || new Set(v).size !== v.length) return null;
  return v as string[];
}

/** Recorded generator weights (untrusted), or null when they are not whole. */
export function readGeneratorWeights(v: unknown): GeneratorWeights | null {
  if (v === null || typeof v !== 'object') return null;
  const w = v as Record<string, unknown>;
  const names = w.names;
  const reliability = w.reliability;
  const answers = w.answers;
  const rate = (x: unknown): x is number => finite(x) && x > 0 && x < 1;
  if (w.method !== 'labels' && w.method !== 'agreement') return null;
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) return null;
  if (!Array.isArray(reliability) || reliability.length !== names.length || !reliability.every(rate)) return null;
  if (!Array.isArray(answers) || answers.length !== names.length || !answers.every(finite)) return null;
  if (!rate(w.pooled) || !finite(w.alternatives) || w.alternatives < 2) return null;
  return {
    method: w.method,
    names: names as string[],
    reliability: reliability as number[],
    answers: answers as number[],
    pooled: w.pooled,
    alternatives: w.alternatives,
  };
}

/** A map recorded in a model file's metadata (untrusted: written by any tool), or null when it is not a whole one. */
export function readProbabilityMap(v: unknown): ProbabilityMap | null {
  if (v === null || typeof v !== 'object') return null;
  const m = v as Record<string, unknown>;
  if (!finite(m.temperature) || m.temperature <= 0) return null;
  const platt = m.platt as Record<string, unknown> | null | undefined;
  if (platt !== null && !(platt && finite(platt.a) && finite(platt.b))) return null;
  const selectorFields = readFieldNames(m.selectorFields);
  if (selectorFields === null) return null;
  const selector = m.selector === null ? null : selectorCoefficients(m.selector, selectorFields.length);
  if (m.selector !== null && selector === null) return null;
  // 'vote', or the primary verifier rule (the selector) where it was recommended.
  if (m.use !== 'vote' && m.use !== PRIMARY_VERIFIER_RULE) return null;
  const recommended = SELECTION_RULES.find((r) => r === m.recommended);
  const generators = m.generators === undefined || m.generators === null ? null : readGeneratorWeights(m.generators);
  const u = m.unanimous as Record<string, unknown> | undefined;
  const unanimous = u && finite(u.right) && finite(u.questions) && u.right >= 0 && u.questions >= u.right ? { right: u.right, questions: u.questions } : null;
  return {
    temperature: m.temperature,
    platt: platt ? { a: platt.a as number, b: platt.b as number } : null,
    selector,
    ...(selectorFields.length > 0 ? { selectorFields } : {}),
    use: m.use as ProbabilityMap['use'],
    ...(recommended ? { recommended } : {}),
    ...(generators ? { generators } : {}),
    ...(unanimous ? { unanimous } : {}),
  };
}
