import { describe, expect, it } from 'vitest';
import type { StudioDb } from './db.ts';
import { Persister } from './persister.ts';

const db = {} as StudioDb;
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('Persister', () => {
  it('a full storage is told once, other failures each time, and `saved` only follows a committed write', async () => {
    const told: string[] = [];
    const p = new Persister(Promise.resolve(db), (m) => told.push(m));
    const full = () => Promise.reject(new DOMException('full', 'QuotaExceededError'));
    let saved = 0;
    p.write('the checkpoint at step 50', full, () => saved++);
    p.write('the checkpoint at step 100', full, () => saved++);
    p.write('the run', () => Promise.reject(new Error('disk on fire')));
    p.write(
      'the run',
      () => Promise.resolve(),
      () => saved++,
    );
    await settle();
    expect(told).toEqual([
      "This browser's storage for the app is full: the checkpoint at step 50 was not saved. Training goes on in memory; delete old runs to save again.",
      'Could not save the run: disk on fire',
    ]);
    expect(saved).toBe(1);
  });

  it('without storage nothing is written or read, and nothing is told', async () => {
    const told: string[] = [];
    const p = new Persister(Promise.resolve(null), (m) => told.push(m));
    let ran = false;
    p.write('the run', async () => {
      ran = true;
    });
    expect(await p.read('the runs', async () => 1)).toBeNull();
    expect(await p.available()).toBe(false);
    await settle();
    expect(ran).toBe(false);
    expect(told).toEqual([]);
  });

  it('a change the user asked for throws in plain words when storage fails, and is nothing to do without storage', async () => {
    const told: string[] = [];
    const p = new Persister(Promise.resolve(db), (m) => told.push(m));
    await expect(p.change('delete the run', () => Promise.reject(new Error('disk on fire')))).rejects.toThrow(
      "Could not delete the run from this browser's storage (disk on fire): it is still there. Try again, or reload the page.",
    );
    let ran = false;
    await new Persister(Promise.resolve(null), () => undefined).change('delete the run', async () => {
      ran = true;
    });
    expect(ran).toBe(false);
    expect(await p.save('the run', () => Promise.resolve())).toBe(true);
    expect(await p.save('the run', () => Promise.reject(new Error('gone')))).toBe(false);
    expect(told).toEqual(['Could not save the run: gone']);
  });
});
