/// <reference types="electron-vite/node" />
/** The PSET builder's worker as a built module of its own (electron-vite emits it as a chunk: build-worker.ts). */
import path from './build-worker?modulePath'

export const buildWorkerPath: string = path
