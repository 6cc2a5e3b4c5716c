/** pdf.js's worker code, loaded into the heavy-work thread itself (its own typings name only the main module). */
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: unknown;
}
