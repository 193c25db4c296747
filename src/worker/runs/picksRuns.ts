/**
 * Pick answers in the worker: one picks run at a time over a set's questions with the selected model
 * (engine/score/picksRun.ts), its progress sent after every chunk, pause/resume/cancel, and picks.jsonl kept
 * as it is written (encoded, chunk by chunk) so the UI can download what is done at any point.
 */
import { activeProfile } from '../../engine/backend/profile.ts';
import type { TokenizePool } from '../../engine/data/tokenize/tokenizePool.ts';
import type { CandidateText, Group } from '../../engine/data/types.ts';
import { type PicksTally, picksAccuracy, picksLine, tallyPicks } from '../../engine/score/picksRecord.ts';
import { type PickRuleChoice, resolveRule } from '../../engine/score/picksRule.ts';
import { runPicks } from '../../engine/score/picksRun.ts';
import { RunControl } from '../../engine/train/runControl.ts';
import type { ScoringPeer } from '../../engine/score/scoring.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { PicksModel } from '../models/picksModel.ts';
import type { PicksJournal } from './picksJournal.ts';
import type { PicksProgress, PicksSource } from '../protocols/picks.ts';

export interface PicksDeps {
  emit: (event: WorkerEvent, transfer?: Transferable[]) => void;
  /** The set's file name and questions; null when nothing is loaded there. */
  groupsOf(set: PicksSource): { name: string; groups: ReadonlyArray<Group<CandidateText>> } | null;
  /** The selected model with the probability map Rerank uses; null when there is none (majority vote and the generator vote learnt without labels need none). */
  model(): Promise<PicksModel | null>;
  pool: () => TokenizePool;
  scoringPeers: () => ReadonlyArray<ScoringPeer>;
  /** Where a run under way is recorded, so that a reload tells it as interrupted. */
  journal: PicksJournal;
}

const NOTHING_LOADED: Record<PicksSource, string> = {
  picks: 'No file to pick from: drop a file without labels on the data panel (it loads as a picks set), or pick from the training or test file.',
  train: 'Load a dataset first (a JSONL file, or the built-in sample).',
  test: 'Load a test file first.',
};

/** The download's name, as documented (docs/design.md, "Picks") and on the panel's button, whatever files were read. */
const PICKS_FILE = 'picks.jsonl';

export class PicksRuns {
  private control: RunControl | null = null;
  private parts: Uint8Array[] = [];
  /** The run's last progress, re-sent with the new state when it is paused or resumed. */
  private last: PicksProgress | null = null;

  constructor(private readonly deps: PicksDeps) {}

  async start(set: PicksSource, choice: PickRuleChoice): Promise<void> {
    if (this.control) throw new Error('A picks run is under way: cancel it first.');
    const source = this.deps.groupsOf(set);
    if (!source || source.groups.length === 0) throw new Error(NOTHING_LOADED[set]);
    const model = await this.deps.model();
    const control = new RunControl();
    this.control = control;
    try {
      const namesGenerators = new Set(source.groups.flatMap((g) => g.candidates.map((c) => c.source)).filter((x) => x !== null)).size >= 2;
      const rule = resolveRule(choice, model?.map ?? null, namesGenerators);
      await this.deps.journal.begin();
      this.parts = [];
      const encoder = new TextEncoder();
      const t0 = performance.now();
      let tally: PicksTally = { questions: 0, labelled: 0, correct: 0 };
      const progress = (state: PicksProgress['state'], message?: string): PicksProgress => {
        const seconds = (performance.now() - t0) / 1000;
        const rate = tally.questions > 0 && seconds > 0 ? tally.questions / seconds : null;
        const total = source.groups.length;
        return {
          state,
          set,
          dataName: source.name,
          modelSlot: model?.slot ?? null,
          rule,
          done: tally.questions,
          total,
          questionsPerSecond: rate,
          etaSeconds: rate ? (total - tally.questions) / rate : null,
          labelled: tally.labelled,
          accuracy: picksAccuracy(tally),
          ...(message ? { message } : {}),
        };
      };
      this.send(progress('running'));
      const outcome = await runPicks(source.groups, {
        model: model ? { cfg: model.cfg, params: model.params, map: model.map } : null,
        rule,
        pool: this.deps.pool(),
        // The backend's profile, taken once for the run.
        profile: activeProfile(),
        peers: this.deps.scoringPeers(),
        control,
        onChunk: (records) => {
          this.parts.push(encoder.encode(records.map(picksLine).join('')));
          tally = tallyPicks(tally, records);
          this.send(progress(control.pauseRequested ? 'paused' : 'running'));
        },
      }).catch((e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        this.send(progress('error', message));
        throw e;
      });
      this.send(progress(outcome.cancelled ? 'cancelled' : 'done'));
    } finally {
      this.control = null;
      this.deps.journal.end();
      model?.release();
    }
  }

  /** At start: a run a reload cut off is told as interrupted. */
  listInterrupted(): Promise<void> {
    return this.deps.journal.interrupted((p) => this.send(p));
  }

  /** Pause holds the run after the chunk under way; cancel ends it there, keeping what is written. */
  controlRun(action: 'pause' | 'resume' | 'cancel'): void {
    const c = this.control;
    if (!c) throw new Error('No picks run is under way.');
    if (action === 'pause') c.pause();
    else if (action === 'resume') c.resume();
    else c.stop();
    if (action !== 'cancel' && this.last) this.send({ ...this.last, state: action === 'pause' ? 'paused' : 'running' });
  }

  private send(p: PicksProgress): void {
    this.last = p;
    if (p.state === 'running' || p.state === 'paused') this.deps.journal.note(p);
    this.deps.emit({ type: 'picksProgress', ...p });
  }

  /** picks.jsonl as far as it is written. */
  download(): void {
    if (this.parts.length === 0) throw new Error('No picks yet: run Pick answers first.');
    const size = this.parts.reduce((n, p) => n + p.length, 0);
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const p of this.parts) {
      bytes.set(p, at);
      at += p.length;
    }
    this.deps.emit({ type: 'exported', fileName: PICKS_FILE, bytes: bytes.buffer, what: 'picks' }, [bytes.buffer]);
  }
}
