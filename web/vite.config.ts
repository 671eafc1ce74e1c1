// The page is served by the LangGraph server at /flowagent/ (graph/server/routes.py), from graph/server/static/.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  base: "/flowagent/",
  plugins: [react()],
  build: {
    outDir: "../graph/server/static",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
});
