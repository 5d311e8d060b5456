/** How team bundles are named (`combee export --bundle .combee/team/<name>.combee-bundle`). */
export const BUNDLE_SUFFIX = '.combee-bundle';
/** The default `combee.team.bundles`: where the shipped workflow reads the team's bundles. */
export const DEFAULT_TEAM_BUNDLE_SOURCES = ['.combee/team'];
/** A larger bundle file is not read (it is compressed: hundreds of thousands of sessions). */
export const MAX_BUNDLE_FILE_BYTES = 512 * 1024 ** 2;
/** Bundles read from one folder or branch, in name order: a repository cannot make an import read without end. */
export const MAX_BUNDLES_PER_SOURCE = 500;
