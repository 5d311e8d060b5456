// The core's folder table (core-layers.json) as lint zones: a folder of src/core may import only the folders the table
// lists, and src/core imports no other layer. The editor shows a break as it is typed; the architecture tests read
// the same table.
import { readFileSync } from 'node:fs';

/** @type {Record<string, string[]>} */
export const CORE_LAYERS = JSON.parse(readFileSync(new URL('./core-layers.json', import.meta.url), 'utf8'));

const OTHER_LAYERS = ['src/extension', 'src/shared', 'src/cli', 'src/webview'];

/** Zones for import-x/no-restricted-paths, paths relative to the repository's root. */
export function coreLayerZones() {
  const folders = Object.keys(CORE_LAYERS);
  const zones = folders.flatMap((folder) => {
    const allowed = CORE_LAYERS[folder];
    const forbidden = folders.filter((other) => other !== folder && !allowed.includes(other));
    if (forbidden.length === 0) return [];
    return [
      {
        target: `./src/core/${folder}`,
        from: forbidden.map((other) => `./src/core/${other}`),
        message: `src/core/${folder} may import ${allowed.join(', ') || 'no other core folder'} (scripts/core-layers.json)`,
      },
    ];
  });
  zones.push({
    target: './src/core',
    from: OTHER_LAYERS.map((layer) => `./${layer}`),
    message: 'src/core imports no other layer',
  });
  return zones;
}
