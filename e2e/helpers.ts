import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Collects console errors and uncaught page errors; a journey ends by asserting the list is empty. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/** The first `groups` questions of the built-in sample (4 candidates each), as JSONL. */
export function sampleSlice(groups: number): string {
  const lines = readFileSync(join(ROOT, 'public/sample/gsm8k_gpt3_openai_4cand.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  const ids = new Set<string>();
  const out: string[] = [];
  for (const line of lines) {
    const id = (JSON.parse(line) as { question_id: string }).question_id;
    if (!ids.has(id) && ids.size === groups) break;
    ids.add(id);
    out.push(line);
  }
  return `${out.join('\n')}\n`;
}

/** Drops a file on an element the way a user's drag-and-drop does (DataTransfer with a File). */
export async function dropFile(page: Page, selector: string, name: string, content: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, content }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([content], name, { type: 'application/x-ndjson' }));
      return dt;
    },
    { name, content },
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await page.dispatchEvent(selector, type, { dataTransfer });
}

/** A .safetensors file with one more field in its `eorm_config` metadata (the app warns about unknown fields, naming them). */
export function withConfigField(file: Buffer, key: string, value: unknown): Buffer {
  const length = Number(file.readBigUInt64LE(0));
  const header = JSON.parse(file.subarray(8, 8 + length).toString('utf8')) as { __metadata__: Record<string, string> };
  header.__metadata__.eorm_config = JSON.stringify({ ...JSON.parse(header.__metadata__.eorm_config), [key]: value });
  const json = JSON.stringify(header);
  const padded = Buffer.from(json.padEnd(json.length + ((8 - (Buffer.byteLength(json) % 8)) % 8), ' '));
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(padded.length));
  return Buffer.concat([size, padded, file.subarray(8 + length)]);
}
