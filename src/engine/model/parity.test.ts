import { paritySuite } from '../testing/paritySuite.ts';
import { FLOAT32_TOLERANCE } from '../testing/tolerances.ts';

paritySuite('cpu', FLOAT32_TOLERANCE);
