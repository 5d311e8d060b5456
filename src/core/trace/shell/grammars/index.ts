import { grammarTable, type GrammarTable } from '../grammar';
import { GENERAL } from './general';
import { JAVASCRIPT } from './javascript';
import { NATIVE } from './native';
import { PYTHON } from './python';

/** Every tool grammar, by program name. */
export const GRAMMARS: GrammarTable = grammarTable([...JAVASCRIPT, ...PYTHON, ...NATIVE, ...GENERAL]);
