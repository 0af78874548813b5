import fs from "node:fs";

// The CPU a local PostgreSQL server spends while a load runs: on a machine of two cores the
// server is a third consumer beside the loader's two threads, and a PostgreSQL load's ratio to
// the parse floor says little without it (docs/performance.md, "Load", stop 47).

// Linux counts a process's CPU in clock ticks of 1/100 s (USER_HZ, fixed at 100 on x86-64 and arm64).
export const TICKS_PER_SECOND = 100;

/** The name and CPU ticks (user + system, all its threads) of process `pid`, from /proc; null once it is gone. */
export function processTicks(pid: number | string): { name: string; ticks: number } | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, the fields after the last ")" do not
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  return { name: stat.slice(stat.indexOf("(") + 1, close), ticks: Number(fields[11]) + Number(fields[12]) }; // utime, stime: fields 14 and 15 of stat(5)
}

/** CPU ticks (user + system) of every process named `postgres`, by pid; null without /proc (not Linux). */
function serverTicks(): Map<number, number> | null {
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    const p = processTicks(pid); // null: gone since the listing
    if (p?.name === "postgres") ticks.set(Number(pid), p.ticks);
  }
  return ticks;
}

/**
 * Starts counting; the returned function gives the server's CPU seconds since, or null where it
 * cannot be read. Processes that start and end between the two readings are not counted (a
 * load's own connections stay open until it is measured).
 */
export function serverCpu(): () => number | null {
  const before = serverTicks();
  return () => {
    const after = serverTicks();
    if (!before || !after || after.size === 0) return null;
    let ticks = 0;
    for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
    return ticks / TICKS_PER_SECOND;
  };
}
