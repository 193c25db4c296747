import { type ParityErrors, hasKernel, compareOps, randomTensor } from '../parity.ts';
import { GELU, composedGelu, fusedGelu } from './gelu.ts';

/** The fused GELU against the composition: value and dx on [7, 300] in [−5, 5]. Null where the backend has no fused kernel. */
export async function geluParity(): Promise<ParityErrors | null> {
  if (!hasKernel(GELU)) return null;
  const x = randomTensor([7, 300], 3, 5);
  try {
    return await compareOps(fusedGelu, composedGelu, { x });
  } finally {
    x.dispose();
  }
}
