import type { StudioDb } from './db.ts';

/**
 * Writes to the browser's storage off the training path: fire and forget, each failure caught. When
 * storage is full (or unavailable) everything goes on in memory and the user is told once.
 */
export class Persister {
  private toldFull = false;

  constructor(
    private readonly db: Promise<StudioDb | null>,
    private readonly warn: (message: string) => void,
  ) {}

  /** Whether anything can be stored here (else there is no point hashing files for it). */
  async available(): Promise<boolean> {
    return (await this.db) !== null;
  }

  /** `saved` runs once the write is committed (never where there is no storage or it failed). */
  write(what: string, op: (db: StudioDb) => Promise<void>, saved?: () => void): void {
    void this.db
      .then(async (db) => {
        if (!db) return;
        await op(db);
        saved?.();
      })
      .catch((e: unknown) => this.failed(what, e));
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
