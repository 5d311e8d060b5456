/** How team bundles are named (`combee export --bundle .combee/team/<name>.combee-bundle`). */
export const BUNDLE_SUFFIX = '.combee-bundle';
/** The default `combee.team.bundles`: where the shipped workflow reads the team's bundles. */
export const DEFAULT_TEAM_BUNDLE_SOURCES = ['.combee/team'];

// Sized to real bundles. The team benchmark's bundle (bench/team.mjs, the `mixed` corpus: 2,800 sessions from 443 MB
// of agent logs, about a month of the heaviest use reported — 423 MB and 732 transcripts in a month) decompresses to
// 108 MiB, 40 KiB per session. A bundle twice and a half that size is still accepted; a decompression bomb stops
// there, and `combee export` refuses to write a bundle no teammate would read.

/** Most bytes a bundle may decompress to: about 6,500 sessions of 40 KiB. */
export const MAX_BUNDLE_DECOMPRESSED_BYTES = 256 * 1024 ** 2;
/** Most sessions in one bundle (two years at 732 a month); past it the pack index alone would grow without end. */
export const MAX_BUNDLE_SESSIONS = 20_000;
/**
 * Longest session line kept (it is parsed whole; one this long imports with a 128 MB heap): 800 times the average and
 * 6 times the largest stored session of that corpus (its 63.5 MB runaway log is stored as 4.9 MB: tool outputs are
 * cut to 8,000 characters, fewer in very long logs). A longer one is skipped with a counted warning.
 */
export const MAX_BUNDLE_SESSION_BYTES = 32 * 1024 ** 2;
/** A larger bundle file is not read: gzip never grows data by more than a few bytes per 64 KiB block. */
export const MAX_BUNDLE_FILE_BYTES = MAX_BUNDLE_DECOMPRESSED_BYTES + 1024 ** 2;
/** Bundles read from one folder or branch, in name order: a repository cannot make an import read without end. */
export const MAX_BUNDLES_PER_SOURCE = 500;
