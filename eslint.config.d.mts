import type { Linter } from 'eslint';

/** The layers of lib/, bottom first (eslint.config.mjs). */
export declare const LAYERS: string[][];

declare const config: Linter.Config[];
export default config;
