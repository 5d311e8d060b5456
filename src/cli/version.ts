// Set by esbuild from package.json (esbuild.mjs `define`).
declare const __COMBEE_VERSION__: string;

export const COMBEE_VERSION: string = __COMBEE_VERSION__;
