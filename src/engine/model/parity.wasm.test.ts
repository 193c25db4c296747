import '@tensorflow/tfjs-backend-wasm';
import { paritySuite } from '../testing/paritySuite.ts';
import { FLOAT32_TOLERANCE } from '../testing/tolerances.ts';

paritySuite('wasm', FLOAT32_TOLERANCE);
