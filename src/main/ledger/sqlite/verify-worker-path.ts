/// <reference types="electron-vite/node" />
/** The start-up check worker's built module (electron-vite emits it as a chunk of its own: verify-worker.ts). */
import path from './verify-worker?modulePath'

export const verifyWorkerPath: string = path
