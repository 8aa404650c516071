import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Files copied as they are (`?url` imports: the MapLibre and pdf.js workers) keep their packages' trailing
 * `//# sourceMappingURL=` comment, which points at a map we do not ship: the comment is removed so the browser does
 * not ask for it (a 404 in every developer console).
 */
function stripSourceMapComments(): Plugin {
  return {
    name: 'crp-strip-source-map-comments',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type === 'asset' && /\.m?js$/.test(file.fileName) && typeof file.source !== 'undefined') {
          const text = typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source);
          if (text.includes('sourceMappingURL=')) file.source = text.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n');
        }
      }
    },
  };
}

const api = 'http://localhost:8080';
const proxied = ['/api', '/accounts', '/user', '/docs', '/openapi.json'];

export default defineConfig({
  plugins: [react(), stripSourceMapComments()],
  server: { port: 5173, proxy: Object.fromEntries(proxied.map((p) => [p, { target: api, changeOrigin: true }])) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps for users (issue 23): they would publish the sources; a developer runs `npm run dev -w @crp/web`.
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
});
