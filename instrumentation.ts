// Runs once when a server process starts: the job worker resumes the jobs a previous process left
// running (after their leases expire) and starts queued ones (lib/runner/jobs.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const [{ startJobWorker }, { getStore }] = await Promise.all([import("./lib/runner/jobs"), import("./lib/db")]);
  startJobWorker(getStore);
}
