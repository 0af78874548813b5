// Entry of the analysis thread (lib/store/parallel-source.ts). The thread is a fresh
// isolate: TypeScript needs tsx's loader registered here too, whatever the parent used.
import { register } from "tsx/esm/api";

register();
await import("./analysis-thread.ts");
