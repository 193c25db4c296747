/**
 * Node-only helpers for the data tests and the ingest benchmark; engine code never imports this file.
 */
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { GPT2_EOT } from '../tokenize/gpt2.ts';
import type { IngestProgress } from '../ingest.ts';
import { isPicksSet, readFiles } from '../formats/readFiles.ts';
import type { Dataset } from '../types.ts';
import { SAMPLE_DATASET_PATH } from '../sample.ts';
import { tokenizeDataset, trainingView } from '../tokenize/tokenizeDataset.ts';
import { inProcessPool } from '../tokenize/tokenizePool.ts';

/** Absolute path of the built-in sample in the repo's `public/` folder. */
export function repoSamplePath(): string {
  return fileURLToPath(new URL(`../../../../public/${SAMPLE_DATASET_PATH}`, import.meta.url));
}

/** A file as a web ReadableStream, read chunk by chunk like `File.stream()`. */
export function fileStream(path: string, chunkBytes = 64 * 1024): ReadableStream<Uint8Array> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  return new ReadableStream<Uint8Array>({
    async start() {
      handle = await open(path, 'r');
    },
    async pull(controller) {
      const buf = new Uint8Array(chunkBytes);
      const { bytesRead } = await handle!.read(buf, 0, chunkBytes, null);
      if (bytesRead === 0) {
        await handle!.close();
        controller.close();
      } else {
        controller.enqueue(buf.subarray(0, bytesRead));
      }
    },
    async cancel() {
      await handle?.close();
    },
  });
}

/** In-memory bytes (or text) as a stream of `chunkBytes`-sized chunks; tiny chunks exercise every split point. */
export function bytesStream(data: Uint8Array | string, chunkBytes = 64 * 1024): ReadableStream<Uint8Array> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(at, at + chunkBytes));
      at += chunkBytes;
    },
  });
}

/**
 * One labelled JSON Lines file read as the app reads a dropped file (formats/readFiles.ts: the kind of its
 * objects detected, its lines read and grouped), a first line `[` and all, every line to give a label or
 * a gold answer (a file to train on): the Dataset.
 */
export async function readDataset(
  stream: ReadableStream<Uint8Array>,
  options: { maxLineBytes?: number; totalBytes?: number; onProgress?: (p: IngestProgress) => void } = {},
): Promise<Dataset> {
  const read = await readFiles([{ name: 'data.jsonl', stream, size: options.totalBytes ?? null, layout: 'jsonl' }], { ...options, requireLabels: true });
  if (isPicksSet(read)) throw new Error('unreachable: every line gives a label or a gold answer');
  return read;
}

/** A JSONL text read as the app reads it (readFiles, r50k tokens up to the 4096 cap, the training view, answers). */
export async function readTrainingData(text: Uint8Array | string) {
  const dataset = await readDataset(bytesStream(text));
  const tokens = await tokenizeDataset(dataset, { maxLen: 4096, clsId: GPT2_EOT, sepId: GPT2_EOT }, inProcessPool());
  const view = trainingView(dataset, tokens);
  const answers = dataset.groups.flatMap((g) => g.candidates.map((c) => c.answerKey));
  return { dataset, tokens, view, answers };
}
