import { fileChunks, readLines } from "../../lib/store/read-lines";

/** Streams the file and parses every line: the floor any loader pays. */
export async function parseFloor(file: string): Promise<{ seconds: number; cpuSeconds: number; lines: number }> {
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  let lines = 0;
  for await (const line of readLines(fileChunks(file))) {
    if (line.length === 0) continue;
    JSON.parse(line);
    lines++;
  }
  const cpu = process.cpuUsage(cpuStarted);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, cpuSeconds: (cpu.user + cpu.system) / 1e6, lines };
}
