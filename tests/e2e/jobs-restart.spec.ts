import { expect, test } from "@playwright/test";
import { generateDataset } from "../../lib/generate/dataset";
import { startFakeLlm, type FakeLlmServer } from "../helpers/fake-llm-server";
import { cli, SERVER_STORES, startServer, type ServerProcess, type TestStore } from "../helpers/server-process";

// Durable jobs through a real server: a job keeps running across a kill -9 of `next start` and a
// restart (the new process takes the expired lease over and the run resumes), and a job is
// cancelled from its page. The spec starts its own servers (E2E_PORT + 2 and + 3), one per store.

const BASE_PORT = Number(process.env.E2E_PORT ?? 3100) + 2;
const dataset = [...generateDataset({ benchmark: "procedural-arith", lengths: [3, 6], itemsPerLength: 15, seed: 9 })].join("\n");
type Job = {
  id: string;
  status: string;
  done: number;
  total: number;
  attempts: number;
  createdBy: string | null;
  leaseOwner: string | null;
};

test.describe.configure({ mode: "serial" });

SERVER_STORES.forEach((kind, i) => {
  test(`a job survives kill -9 of next start and a restart; a job is cancelled from its page (${kind.name})`, async ({ page }) => {
    test.setTimeout(180_000);
    let store: TestStore | undefined;
    let server: ServerProcess | undefined;
    let llm: FakeLlmServer | undefined;
    try {
      store = await kind.create();
      cli(store.url, "migrate");
      const token = cli(store.url, "token", "create", "--name", "laptop");
      llm = await startFakeLlm({ p: 1, delayMs: 120 });
      const env = { DATABASE_URL: store.url, STEPWISE_JOB_LEASE_SECONDS: "3", STEPWISE_MAX_JOBS: "2" };
      const port = BASE_PORT + i;
      server = await startServer(port, env);
      const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const api = async (path: string, init?: RequestInit) => (await fetch(server!.url + path, init)).json();
      const job = (id: string) => api(`/api/v1/jobs/${id}`, { headers: auth }) as Promise<Job>;

      const runKey = `restart-${kind.name}`;
      const res = await fetch(`${server.url}/api/v1/jobs`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ endpoint: llm.url, model: "fake-llm", runKey, dataset, datasetName: "arith.jsonl", concurrency: 1 }),
      });
      expect(res.status).toBe(202);
      const { id } = (await res.json()) as Job;
      await expect.poll(async () => (await job(id)).done, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
      await page.goto(`${server.url}/jobs/${id}`);
      await expect(page.getByRole("status")).toContainText("running");
      const before = await job(id);
      expect(before).toMatchObject({ status: "running", attempts: 1, createdBy: "token laptop" });

      await server.kill9();
      const stored = (await job(id).catch(() => null)) as Job | null;
      expect(stored).toBeNull(); // the server is gone
      server = await startServer(port, env);
      // the new process waits for the dead one's lease (3 s) to expire, then resumes the run
      await expect.poll(async () => (await job(id)).status, { timeout: 90_000, intervals: [500] }).toBe("complete");
      const after = await job(id);
      expect(after).toMatchObject({ status: "complete", done: 30, total: 30, attempts: 2, leaseOwner: null });
      expect(after.leaseOwner).toBeNull();
      const runs = (await api("/api/v1/runs")) as { key: string; generations: number }[];
      expect(runs.find((r) => r.key === runKey)?.generations).toBe(30);
      await page.goto(`${server.url}/jobs/${id}`);
      await expect(page.getByText("Complete", { exact: true })).toBeVisible();
      await expect(page.getByText("2 (resumed after a server stopped)")).toBeVisible();

      // cancel from the page, typing the token (no session); a slower model so that it is still running
      await llm.close();
      llm = await startFakeLlm({ p: 1, delayMs: 800 });
      const slow = await fetch(`${server.url}/api/v1/jobs`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ endpoint: llm.url, model: "fake-llm", runKey: `${runKey}-cancel`, dataset, concurrency: 1 }),
      });
      const cancelId = ((await slow.json()) as Job).id;
      await expect.poll(async () => (await job(cancelId)).done, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      await page.goto(`${server.url}/jobs/${cancelId}`);
      await page.getByLabel("API token").fill(token);
      await page.getByRole("button", { name: "Cancel job" }).click();
      await expect(page.getByText("Cancelled", { exact: true })).toBeVisible({ timeout: 15_000 });
      const cancelled = await job(cancelId);
      expect(cancelled.status).toBe("cancelled");
      expect(cancelled.done).toBeLessThan(30);
      await page.goto(`${server.url}/jobs`);
      await expect(page.getByRole("link", { name: id.slice(0, 8) })).toBeVisible();
    } catch (e) {
      console.error(server?.output().slice(-4000));
      throw e;
    } finally {
      await server?.kill9();
      await llm?.close();
      await store?.drop();
    }
  });
});
