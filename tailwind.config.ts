import type { Config } from 'tailwindcss';

// Tailwind 4 reads its settings from CSS; this file is loaded from app/globals.css through
// @config so the content globs and theme extensions stay typed and in one place.
const config: Config = {
  content: ['./app/**/*.{ts,tsx}', './components/**/*.{ts,tsx}'],
  theme: { extend: {} },
};
export default config;
