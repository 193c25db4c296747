/**
 * Node-only: the Python with PyTorch that the interop tests and the benchmarks run, and how to run the
 * `python/` package's modules with it. Engine code never imports this file.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

// EORM_PYTHON_DIR: for bundles that run from elsewhere (the GPU kit).
export const PYTHON_DIR = process.env.EORM_PYTHON_DIR ?? join(resolve(import.meta.dirname, '../../..'), 'python');
export const INSTALL_TORCH =
  "Install Debian's PyTorch: `sudo apt-get install -y python3-torch python3-numpy` (or point PYTHON at an interpreter that has torch).";

/** `$PYTHON`, else `python3` when it imports torch, else /usr/bin/python3 (Debian's torch lives there). */
export function findPython(): { python: string | null; tried: string[] } {
  const tried: string[] = [];
  const candidates = process.env.PYTHON ? [process.env.PYTHON] : ['python3', '/usr/bin/python3'];
  for (const py of candidates) {
    const r = spawnSync(py, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
    if (r.status === 0) return { python: py, tried };
    tried.push(`${py}: ${r.error ? r.error.message : (r.stderr || '').trim().split('\n').pop()}`);
  }
  return { python: null, tried };
}

/** Runs `python args…` in python/ with the package importable; returns stdout, throws with stderr on failure. */
export function runPython(python: string, args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(python, args, { cwd: PYTHON_DIR, encoding: 'utf8', env: { ...process.env, PYTHONPATH: PYTHON_DIR, ...env }, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${python} ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return r.stdout;
}
