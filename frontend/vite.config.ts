/// <reference types="vitest/config" />
import { defineConfig } from "vite";

// React without @vitejs/plugin-react: esbuild compiles JSX with the automatic runtime.
export default defineConfig({
  esbuild: { jsx: "automatic" },
  server: {
    port: 5173,
    proxy: { "/api": { target: "http://127.0.0.1:8765", changeOrigin: false } },
  },
  build: {
    outDir: "dist",
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      // react-router ships "use client" directives, meaningless in a client-only bundle
      onwarn(warning, warn) {
        if (warning.code === "MODULE_LEVEL_DIRECTIVE") return;
        warn(warning);
      },
    },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test-setup.ts"],
    // A report's render took 5-6 s beside the suite's load tests on two busy cores (vitest's default is 5 s).
    testTimeout: 20_000,
  },
});
