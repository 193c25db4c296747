/**
 * A picks run's trace in this browser's storage, so that one cut off by a reload (or the tab closing) is told as
 * interrupted after it, as a training run is (issue 48, point 8): its progress is recorded while it runs, under a
 * Web Lock the run's tab holds, and removed when it ends. A record still there whose lock no tab holds was cut off.
 */
import type { PicksProgress } from '../protocols/picks.ts';
import { lockRun, underRunLock } from '../storage/runLocks.ts';
import type { Persister } from '../storage/persister.ts';

const lockId = (id: string) => `picks-${id}`;

export class PicksJournal {
  private id: string | null = null;
  private release: (() => void) | null = null;

  constructor(private readonly persist: Persister) {}

  /** A run starts: its lock is taken (a new id: no tab holds it) before its first record. */
  async begin(): Promise<void> {
    this.id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    this.release = await lockRun(lockId(this.id));
  }

  /** The run's progress as it stands (running or paused). */
  note(progress: PicksProgress): void {
    const id = this.id;
    if (id !== null) this.persist.write('the picks run', (db) => db.putPicksRun(id, progress));
  }

  /** The run ended (done, cancelled or failed): its record goes (after the notes, in order), then its lock. */
  end(): void {
    const [id, release] = [this.id, this.release];
    [this.id, this.release] = [null, null];
    if (id !== null) this.persist.write('the picks run', (db) => db.deletePicksRun(id));
    release?.();
  }

  /** Each run recorded as under way that no tab holds: told as interrupted (through `send`) and its record removed. */
  async interrupted(send: (progress: PicksProgress) => void): Promise<void> {
    const runs = (await this.persist.read('the picks runs', (db) => db.listPicksRuns())) ?? [];
    for (const run of runs) {
      await underRunLock(lockId(run.id), async () => {
        await this.persist.save('the picks run', (db) => db.deletePicksRun(run.id));
        const p = run.progress as PicksProgress;
        const message =
          `Pick answers on ${p.dataName} was cut off by a reload (or the tab closing) after ${p.done} of ${p.total} questions: ` +
          'its picks were not kept. Load the file (and the model, if it was imported) again, then Pick answers.';
        send({ ...p, state: 'interrupted', questionsPerSecond: null, etaSeconds: null, message });
      });
    }
  }
}
