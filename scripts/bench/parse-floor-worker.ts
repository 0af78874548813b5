// Child process of scripts/bench/file-figures.ts, run from a bundle as the load child is: the
// parse floor in a process of its own, timed from its first read as the load is timed from its
// start, so that both pay the same fresh memory and unoptimised code (the floor measured in the
// bench's own process runs in memory and code that earlier rounds warmed).
import { parseFloor } from "./parse-floor";

console.log(JSON.stringify(await parseFloor(process.argv[2])));
