// Bundled alone as dist/tokenizer.js (its BPE ranks are large), loaded on first use by tokens.ts.
export { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
