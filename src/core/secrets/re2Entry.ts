// Bundled alone as dist/re2.js, loaded by userPatterns.ts only when the user has redaction patterns.
export { RE2JS } from 're2js';
