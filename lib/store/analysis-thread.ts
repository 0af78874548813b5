import { workerData } from "node:worker_threads";

// The second thread's entry: a native load's analysis (lib/store/native-thread.ts), or an
// importer (lib/import/thread.ts). Each loads only its own modules: an import's do without zod,
// whose start (~90 ms) would delay its first sample (docs/performance.md, "Importers").
if ((workerData as { kind?: string }).kind === "import") await import("../import/thread");
else (await import("./native-thread")).nativeThread();
