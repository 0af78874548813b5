// Entry of the analysis thread (lib/store/parallel-source.ts) when lib/ runs as TypeScript
// (tests, scripts under tsx). The thread is a fresh isolate: tsx's loader is registered here
// too, at a cost in memory that bin/bundle.mjs explains. The CLI runs from a bundle instead (bin/bundle.mjs), whose own
// analysis-thread.mjs sits beside the code that starts the thread and needs no loader.
import { register } from "tsx/esm/api";

register();
await import("./analysis-thread.ts");
