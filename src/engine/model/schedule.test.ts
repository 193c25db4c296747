import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDir } from '../testing/fixtureDir.ts';
import { cosineWithWarmup, warmupSteps } from './schedule.ts';

const schedule = JSON.parse(readFileSync(join(fixtureDir(), 'lr_schedule.json'), 'utf8'));

describe('cosine schedule with warmup', () => {
  for (const c of schedule.cases as Array<{ base_lr: number; warmup_steps: number; total_steps: number; lr: number[] }>) {
    it(`matches LambdaLR for total ${c.total_steps}, warmup ${c.warmup_steps}, lr ${c.base_lr}`, () => {
      expect(c.lr.length).toBe(c.total_steps + 1);
      c.lr.forEach((want, s) => {
        const got = cosineWithWarmup(s, c.base_lr, c.warmup_steps, c.total_steps);
        const tol = 1e-12 * Math.max(Math.abs(want), 1e-300);
        if (!(Math.abs(got - want) <= tol)) throw new Error(`step ${s}: got ${got}, want ${want}`);
      });
    });
  }

  it('starts at lr 0 when there is warmup, and uses int(ratio·total) warmup steps', () => {
    expect(cosineWithWarmup(0, 1e-4, 10, 100)).toBe(0);
    expect(warmupSteps(37, 0.1)).toBe(3);
    expect(warmupSteps(100, 0.1)).toBe(10);
  });
});
