// The reference web table: a static bundle (committed as package data in
// service/cardroom/server/browser/web_table/, written and checked by
// scripts/build_web.py) that `cardroom serve --web-address` serves at /.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // No source maps or inlined assets: a small, reviewable, deterministic bundle.
    sourcemap: false,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 2000,
  },
});
