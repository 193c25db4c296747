/**
 * Every input format, declared once: its name (as the panel and a dataset's `format` say it), how the data
 * panel describes it, and the kinds of JSON object its lines (or array elements) hold, each with how it is
 * detected and which reader takes it. detect.ts, readFiles.ts, describe.ts and the data panel read this
 * table; the Python twin's is eorm/formats/table.py.
 */
import { isChatOutput, isChatRequest, type ChatRequests, chatOutputReader } from './chatBatch.ts';
import { candidatesReader } from './candidates.ts';
import type { ObjectReader, ReadContext } from './context.ts';
import { isGrouped, groupedReader } from './grouped.ts';
import { isLmEval, lmEvalReader } from './lmEval.ts';

export interface ObjectKindSpec {
  readonly kind: string;
  /**
   * Detection tries the kinds from the lowest precedence up and takes the first whose `detect` holds for
   * a file's first object (kinds named by a field of their own first); an object no kind claims is read
   * as candidates, whose errors then say which field is missing.
   */
  readonly precedence: number;
  readonly detect: (obj: Record<string, unknown>) => boolean;
  /** The reader of one file's objects of this kind (`requests`: a chat batch's questions, read before its outputs). */
  readonly reader: (ctx: ReadContext, requests: ChatRequests) => ObjectReader;
}

export interface FormatSpec {
  readonly name: string;
  /** The panel's sentence: what the file is, and the words count() pluralises, "1 question × 2 samples". */
  readonly describe: readonly [title: string, group: string, sample: string];
  /** How the data panel's hint names it among the formats it reads (the app's own format is the hint's lead). */
  readonly hint?: string;
  /** The kinds of object its lines hold; none for a layout (a JSON array) or a join of files. */
  readonly kinds: readonly ObjectKindSpec[];
  /** Its name holds in a JSON array too (else an array is 'json-array'). */
  readonly namedInArray?: boolean;
}

const hasGenText = (obj: Record<string, unknown>) => Object.hasOwn(obj, 'gen_text') || Object.hasOwn(obj, 'generated_full_text');

export const FORMATS = [
  {
    name: 'candidates',
    describe: ['one candidate per line', 'question', 'candidate'],
    kinds: [{ kind: 'candidates', precedence: 3, detect: hasGenText, reader: (ctx) => candidatesReader(ctx) }],
  },
  {
    name: 'grouped',
    describe: ['one question per line', 'question', 'sample'],
    hint: 'one question per line with its samples',
    kinds: [{ kind: 'grouped', precedence: 4, detect: isGrouped, reader: (ctx) => groupedReader(ctx) }],
  },
  { name: 'json-array', describe: ['JSON array of questions', 'question', 'sample'], hint: 'a JSON array', kinds: [] },
  {
    name: 'lm-eval',
    describe: ['lm-evaluation-harness samples', 'doc', 'repeat'],
    hint: 'lm-evaluation-harness samples',
    kinds: [{ kind: 'lm-eval', precedence: 2, detect: isLmEval, reader: (ctx) => lmEvalReader(ctx) }],
    namedInArray: true,
  },
  {
    name: 'chat-batch',
    describe: ['chat completion batch', 'request', 'choice'],
    hint: 'a chat batch (output and request files together)',
    kinds: [
      { kind: 'chat-output', precedence: 0, detect: isChatOutput, reader: (ctx, requests) => chatOutputReader(ctx, requests) },
      { kind: 'chat-request', precedence: 1, detect: isChatRequest, reader: (_ctx, requests) => requests.reader() },
    ],
  },
  { name: 'multi-file', describe: ['files joined', 'question', 'candidate'], hint: 'one results file per model', kinds: [] },
] as const satisfies readonly FormatSpec[];

/** A format's name. */
export type FormatName = (typeof FORMATS)[number]['name'];
/** A kind of JSON object a line may hold. */
export type ObjectKind = (typeof FORMATS)[number]['kinds'][number]['kind'];

/** Every kind, in the order detection tries them. */
export const OBJECT_KINDS: ReadonlyArray<ObjectKindSpec & { kind: ObjectKind; format: FormatSpec }> = FORMATS.flatMap((format: FormatSpec) =>
  format.kinds.map((k) => ({ ...k, kind: k.kind as ObjectKind, format })),
).sort((a, b) => a.precedence - b.precedence);

export const FORMAT_BY_NAME: Readonly<Record<FormatName, FormatSpec>> = Object.fromEntries(FORMATS.map((f: FormatSpec) => [f.name, f])) as Record<
  FormatName,
  FormatSpec
>;
