import type { StudioDb } from './db.ts';

/**
 * Writes to the browser's storage off the training path: fire and forget, each failure caught. When
 * storage is full (or unavailable) everything goes on in memory and the user is told once.
 */
export class Persister {
  private toldFull = false;
  /** Called when opening the storage waits for another tab (see storageBlocked). */
  readonly markBlocked: () => void;
  /** Resolves once opening the storage was found blocked by another tab; never where it opens. */
  readonly storageBlocked: Promise<void>;

  constructor(
    private readonly db: Promise<StudioDb | null>,
    private readonly warn: (message: string) => void,
  ) {
    let mark!: () => void;
    this.storageBlocked = new Promise<void>((resolve) => (mark = resolve));
    this.markBlocked = mark;
  }

  /** Whether anything can be stored here (else there is no point hashing files for it). */
  async available(): Promise<boolean> {
    return (await this.db) !== null;
  }

  /** `saved` runs once the write is committed (never where there is no storage or it failed). */
  write(what: string, op: (db: StudioDb) => Promise<void>, saved?: () => void): void {
    void this.save(what, op).then((ok) => ok && saved?.());
  }

  /** A write to wait for: whether it was committed (a failure is told as for `write`). */
  async save(what: string, op: (db: StudioDb) => Promise<void>): Promise<boolean> {
    try {
      const db = await this.db;
      if (!db) return false;
      await op(db);
      return true;
    } catch (e) {
      this.failed(what, e);
      return false;
    }
  }

  /** A read, or null where there is no storage or it failed (said in the log). */
  async read<T>(what: string, op: (db: StudioDb) => Promise<T>): Promise<T | null> {
    try {
      const db = await this.db;
      return db ? await op(db) : null;
    } catch (e) {
      this.warn(`Could not read ${what} from this browser's storage: ${message(e)}`);
      return null;
    }
  }

  /**
   * A change the user asked for (a delete): throws in plain words when storage failed, so that the
   * caller leaves its lists as they are. Where there is no storage there is nothing to change.
   */
  async change(what: string, op: (db: StudioDb) => Promise<void>): Promise<void> {
    const db = await this.db;
    if (!db) return;
    try {
      await op(db);
    } catch (e) {
      throw new Error(`Could not ${what} from this browser's storage (${message(e)}): it is still there. Try again, or reload the page.`);
    }
  }

  private failed(what: string, e: unknown): void {
    if (isQuotaError(e)) {
      if (this.toldFull) return;
      this.toldFull = true;
      this.warn(`This browser's storage for the app is full: ${what} was not saved. Training goes on in memory; delete old runs to save again.`);
      return;
    }
    this.warn(`Could not save ${what}: ${message(e)}`);
  }
}

function isQuotaError(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'QuotaExceededError';
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
