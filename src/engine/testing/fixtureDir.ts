import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The PyTorch parity fixtures: `EORM_FIXTURES` when set (fixtures generated the same way with another
 * config must pass unchanged), else the copy of ../shared/fixtures/transebm kept in src/engine/testdata.
 */
export function fixtureDir(): string {
  const dir = process.env.EORM_FIXTURES ?? resolve(dirname(fileURLToPath(import.meta.url)), '../testdata/transebm');
  if (!existsSync(resolve(dir, 'case.json'))) throw new Error(`no TransEBM fixtures in ${dir} (set EORM_FIXTURES to a fixture folder)`);
  return dir;
}
