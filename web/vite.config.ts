// The page is served by the LangGraph server at /flowagent/ (flowagent/server/routes.py), from flowagent/server/static/.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  base: "/flowagent/",
  plugins: [react()],
  build: {
    outDir: "../flowagent/server/static",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
});
