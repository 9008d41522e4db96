// The results that narrow on `ok` (`importRequest`'s every form, `convert`, `convertJson`), checked
// as a user's compiler sees them: types/import.ts compiled with tsc in the consumer project, under
// `strict`, as a Node project without the DOM library and as a browser project (typecheck.mjs).

import { typeCheckTests } from './typecheck.mjs';

typeCheckTests('import results narrow on ok', 'import.ts');
