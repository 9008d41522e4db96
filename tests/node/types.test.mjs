// The package's TypeScript declarations, checked as a user's compiler sees them: types/consumer.ts
// compiled with tsc in the consumer project, under `strict` (typecheck.mjs).

import { typeCheckTests } from './typecheck.mjs';

typeCheckTests('the declarations type-check a strict consumer', 'consumer.ts');
