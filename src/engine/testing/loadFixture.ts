import { readSafetensors } from '../io/safetensors.ts';
import type { ArrayWithShape, FixtureCase, ParityFixture } from './fixtureParity.ts';

/** The raw files of a fixture folder, however they were fetched (fs in Node, fetch in the browser). */
export interface FixtureFiles {
  configJson: string;
  caseJson: string;
  weights: Uint8Array;
  expected: Uint8Array;
}

export function parseFixture(files: FixtureFiles): ParityFixture {
  const weights = new Map<string, Float32Array>();
  for (const [name, t] of readSafetensors(files.weights, { copy: true }).tensors) weights.set(name, t.data);
  const expected = new Map<string, ArrayWithShape>();
  for (const [name, t] of readSafetensors(files.expected, { copy: true }).tensors) expected.set(name, { shape: t.shape, data: t.data });
  return {
    referenceConfig: JSON.parse(files.configJson) as Record<string, unknown>,
    caseJson: JSON.parse(files.caseJson) as FixtureCase,
    weights,
    expected,
  };
}
