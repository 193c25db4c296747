import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureDir } from './fixtureDir.ts';
import { type FixtureFiles, parseFixture } from './loadFixture.ts';
import type { ParityFixture } from './fixtureParity.ts';

export function readFixtureFiles(dir = fixtureDir()): FixtureFiles {
  return {
    configJson: readFileSync(join(dir, 'config.json'), 'utf8'),
    caseJson: readFileSync(join(dir, 'case.json'), 'utf8'),
    weights: readFileSync(join(dir, 'weights.safetensors')),
    expected: readFileSync(join(dir, 'expected.safetensors')),
  };
}

export function readFixture(dir = fixtureDir()): ParityFixture {
  return parseFixture(readFixtureFiles(dir));
}
