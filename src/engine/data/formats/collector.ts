/**
 * Every reader's lines end here: grouping by question (id, else text), answer keys (a question's equal
 * answers vote under one key: answerClasses.ts), labels given or from gold, and the rule for files without
 * any label: until a line gives a label or a gold answer, lines without both wait; if none ever does, they
 * load as a picks set, else they are rejected 'missing'.
 */
import { AnswerClasses } from '../answers/answerClasses.ts';
import { candidateKeys, goldAnswerKey, matchesGold } from '../answers/answers.ts';
import { describeValue } from '../record.ts';
import type { Candidate, CandidateText, Group, IngestReport, LineError } from '../types.ts';

/** One sample of a line, as a reader found it. */
export interface RawSample {
  genText: string;
  label: 0 | 1 | null;
  /** The candidate's own final answer field, when the format gives one. */
  answer: string | null;
  source: string | null;
  reasoning?: string;
}

/** One accepted line (or array element) of any format: a question and its samples. */
export interface RawLine {
  line: number;
  questionId: string | null;
  question: string;
  gold: string | null;
  samples: RawSample[];
}

interface Pending {
  raw: RawLine;
  file: string | undefined;
  fileDefault: string | null;
}

export interface Collected {
  report: IngestReport;
  candidateCount: number;
  labelled: boolean;
  /** Some candidate's label was given (not from gold). */
  givenLabels: boolean;
  groups: Group<Candidate>[] | Group<CandidateText>[];
}

export class Collector {
  readonly report: IngestReport = { bytesRead: 0, linesRead: 0, accepted: 0, rejected: 0, blank: 0, invalidUtf8Lines: 0, errors: [] };
  private readonly groups: Group<CandidateText>[] = [];
  private readonly byKey = new Map<string, Group<CandidateText>>();
  /** Each group's answer classes: its candidates' keys are their class's key. */
  private readonly classes = new Map<Group<CandidateText>, AnswerClasses>();
  private readonly pending: Pending[] = [];
  /** Each question text held back, once: every line of a group repeats it, and a picks set holds all its lines until finish(). */
  private readonly pendingQuestions = new Map<string, string>();
  private readonly fileOrder = new Map<string | undefined, number>();
  /** Each source name and answer once: lines repeat them (a model's file its name, a question's samples their answers). */
  private readonly strings = new Map<string, string>();
  private labelled = false;
  private givenLabels = false;
  private candidateCount = 0;
  private file: string | undefined;
  private fileDefault: string | null = null;

  /** `requireLabels`: the file is labelled from its first line, so a line without label and gold is rejected at once (a file to train on). */
  constructor(requireLabels = false) {
    this.labelled = requireLabels;
  }

  /** Lines that follow come from `file` (named in errors when several are read); `defaultSource` is their source when they give none. */
  setFile(file: string | undefined, defaultSource: string | null): void {
    this.file = file;
    this.fileDefault = defaultSource;
    if (!this.fileOrder.has(file)) this.fileOrder.set(file, this.fileOrder.size);
  }

  reject(error: LineError): void {
    this.report.rejected++;
    this.report.errors.push(this.file === undefined ? error : { file: this.file, ...error });
  }

  line(raw: RawLine): void {
    if (!this.labelled) {
      if (raw.gold === null && raw.samples.every((s) => s.label === null)) {
        const question = this.pendingQuestions.get(raw.question);
        if (question === undefined) this.pendingQuestions.set(raw.question, raw.question);
        else raw.question = question;
        this.pending.push({ raw, file: this.file, fileDefault: this.fileDefault });
        return;
      }
      this.labelled = true;
      this.pendingQuestions.clear();
      const [file, fileDefault] = [this.file, this.fileDefault];
      for (const p of this.pending.splice(0)) {
        this.file = p.file;
        this.rejectMissing(p.raw);
      }
      [this.file, this.fileDefault] = [file, fileDefault];
    }
    this.add(raw, this.fileDefault, true);
  }

  finish(): Collected {
    this.pendingQuestions.clear();
    if (!this.labelled) {
      for (const p of this.pending.splice(0)) {
        this.file = p.file;
        this.add(p.raw, p.fileDefault, false);
      }
    }
    this.classes.clear();
    // Lines held back were reported when the first labelled line came: put every error back in file order.
    const order = (e: LineError) => this.fileOrder.get(e.file) ?? 0;
    this.report.errors.sort((a, b) => order(a) - order(b) || a.line - b.line);
    return { report: this.report, candidateCount: this.candidateCount, labelled: this.labelled, givenLabels: this.givenLabels, groups: this.groups };
  }

  private shared(text: string | null): string | null {
    if (text === null) return null;
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  private rejectMissing(raw: RawLine): void {
    const reason =
      raw.gold === null
        ? 'missing'
        : `missing, and the gold answer ${describeValue(raw.gold)} has no final answer to label the line by; give "label" (0 or 1) or a gold answer`;
    this.reject({ line: raw.line, field: 'label', kind: 'missing_field', reason });
  }

  private add(raw: RawLine, fileDefault: string | null, labelled: boolean): void {
    // The prefixes keep an id and a question text that happen to be equal apart.
    const key = raw.questionId !== null ? `id:${raw.questionId}` : `q:${raw.question}`;
    let group = this.byKey.get(key);
    if (group !== undefined && group.question !== raw.question) {
      // Joining them would tokenize this candidate with another question's text.
      const first = group.candidates[0];
      const where = first.file !== undefined && first.file !== this.file ? `${first.file} line ${first.line}` : `line ${first.line}`;
      this.reject({
        line: raw.line,
        field: 'question',
        kind: 'conflicting_question',
        reason: `question_id ${describeValue(raw.questionId)} was first used on ${where} with another question (${describeValue(group.question)}); give each question its own question_id, or write the question identically`,
      });
      return;
    }
    const goldKnown = raw.gold !== null && goldAnswerKey(raw.gold) !== null;
    if (labelled && !goldKnown && raw.samples.some((s) => s.label === null)) {
      this.rejectMissing(raw);
      return;
    }
    this.report.accepted++;
    if (group === undefined) {
      group = { questionId: raw.questionId, question: raw.question, candidates: [] };
      this.byKey.set(key, group);
      this.groups.push(group);
    }
    let classes = this.classes.get(group);
    if (classes === undefined) this.classes.set(group, (classes = new AnswerClasses()));
    for (const s of raw.samples) {
      const { answerKey, textAnswerKey } = candidateKeys(s.answer, s.genText);
      const voteKey = classes.classOf(answerKey);
      const c: CandidateText = {
        line: raw.line,
        genText: s.genText,
        answer: this.shared(s.answer),
        answerKey: this.shared(voteKey),
        textAnswerKey: this.shared(textAnswerKey),
        gold: raw.gold,
        source: this.shared(s.source ?? fileDefault),
      };
      if (this.file !== undefined) c.file = this.file;
      if (s.reasoning !== undefined) c.reasoning = s.reasoning;
      if (labelled) {
        const goldMatch = matchesGold(answerKey, raw.gold);
        if (s.label !== null) this.givenLabels = true;
        Object.assign(c, { label: s.label ?? (goldMatch ? 1 : 0), labelFromGold: s.label === null, goldMatch });
      }
      group.candidates.push(c);
      this.candidateCount++;
    }
  }
}
