// The declarations of `agent-input/agui` and `agent-input/register`, checked as a user's compiler
// sees them: types/agui-register.ts compiled with tsc in the consumer project, under `strict`
// (typecheck.mjs, as types.test.mjs does for the base entry).

import { typeCheckTests } from './typecheck.mjs';

typeCheckTests('agui and register declarations type-check a strict consumer', 'agui-register.ts');
