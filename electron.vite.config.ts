import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

export default defineConfig({
  main: {
    // Class private fields lowered (to WeakMaps, still private): the security scanner's parser does not know
    // them, and a file it cannot parse would silently escape the scan.
    oxc: { target: 'es2021' },
    build: {
      rolldownOptions: { input: { index: resolve(__dirname, 'src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      rolldownOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    base: './',
    plugins: [react()],
    build: {
      // electron-vite leaves the renderer unminified by default; the initial JS budget is 300 KB gzip.
      minify: true,
      rolldownOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
})
