import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { openStore } from "../../lib/db";
import { EXAMPLES } from "../helpers/fixtures";
import { cli, SERVER_STORES, startServer, type ServerProcess, type TestStore } from "../helpers/server-process";

// Behind a reverse proxy, with more than one server process: Debian's nginx on loopback (as it
// would stand behind TLS termination: it sets X-Forwarded-Proto https) round-robins over two
// `next start` processes on one PostgreSQL store. Checked through the proxy: HSTS, Secure session
// cookies, the CSRF check accepting the public origin and refusing another, a session and a load
// made on one process holding on the other, one write budget and one sign-in attempt budget over
// both processes, the latter also keyed on the client address nginx passes (STEPWISE_TRUST_PROXY=1). Skips with a
// printed reason without nginx or PostgreSQL (.ci/run installs nginx). Ports E2E_PORT + 6, + 7
// (servers) and + 10 (nginx).

const PORT = Number(process.env.E2E_PORT ?? 3100);
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => fs.existsSync(p));
const PG = SERVER_STORES.find((s) => s.name === "postgres");
const root = path.resolve(".");
const EXAMPLE = path.join(EXAMPLES, "generic-small.jsonl");
const EMAIL = "editor@nginx.test";
const PASSWORD = "a long enough password 42";

function nginxConf(dir: string, listen: number, upstreams: number[]) {
  return `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream stepwise {
    ${upstreams.map((p) => `server 127.0.0.1:${p};`).join("\n    ")}
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${listen};
    client_max_body_size 64m;
    proxy_request_buffering off;
    location / {
      proxy_pass http://stepwise;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Proto https;
      proxy_set_header X-Forwarded-For $remote_addr;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

test.describe.configure({ mode: "serial" });

test("two next start processes behind nginx on one PostgreSQL store", async ({ page, playwright }) => {
  test.skip(!NGINX, "nginx is not installed (apt-get install -y nginx; .ci/run does)");
  test.skip(!PG, "needs PostgreSQL: set STEPWISE_TEST_PG");
  test.setTimeout(240_000);
  let store: TestStore | undefined;
  const servers: ServerProcess[] = [];
  let nginx: ChildProcess | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-nginx-"));
  fs.chmodSync(dir, 0o777); // nginx's workers run as nobody when started by root
  try {
    store = await PG!.create();
    cli(store.url, "migrate");
    spawnSync(process.execPath, ["bin/stepwise.mjs", "user", "create", "--email", EMAIL, "--role", "editor", "--password-stdin"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: store.url },
      input: PASSWORD + "\n",
    });
    const token = cli(store.url, "token", "create", "--name", "ci");
    const env = {
      DATABASE_URL: store.url,
      STEPWISE_ACCESS: "private",
      STEPWISE_WRITE_BURST: "6",
      STEPWISE_WRITE_RATE_PER_MIN: "1",
      STEPWISE_TRUST_PROXY: "1",
    };
    for (const p of [PORT + 6, PORT + 7]) servers.push(await startServer(p, env));
    const listen = PORT + 10;
    fs.writeFileSync(path.join(dir, "nginx.conf"), nginxConf(dir, listen, [PORT + 6, PORT + 7]));
    nginx = spawn(NGINX!, ["-p", dir, "-c", path.join(dir, "nginx.conf")], { detached: true, stdio: "ignore" });
    const base = `http://127.0.0.1:${listen}`;
    await expect.poll(async () => (await fetch(`${base}/login`).catch(() => null))?.status ?? 0, { timeout: 20_000 }).toBe(200);

    // HSTS through the proxy (it says the client came over https)
    const login = await fetch(`${base}/login`);
    expect(login.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);

    // failed sign-ins count on both processes: one account's burst of 10 over the two, then refused.
    // The budget refills one attempt per 12 s, so on a slow machine a few more pass; limits kept
    // per process would let at least 20 through (10 on each).
    const answeredBy = new Set<string>();
    const error = page.getByTestId("login-error");
    await page.goto(`${base}/login`);
    const started = Date.now();
    let refusedAt = 0;
    for (let i = 1; i <= 20 && !refusedAt; i++) {
      await page.getByLabel("Email").fill("nobody@nginx.test");
      await page.getByLabel("Password").fill(`wrong password number ${i}`);
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/login"),
        page.getByRole("button", { name: "Sign in" }).click(),
      ]);
      answeredBy.add(answer.headers()["x-upstream"]);
      // React resets the form once the action's result commits, shortly after the response:
      // a password typed before that reset is cleared, and the next click submits nothing
      await expect(page.getByLabel("Password")).toHaveValue("");
      await expect(error).toHaveText(/Wrong email or password|Too many attempts for this email/);
      if (i > 10)
        await expect(error)
          .toHaveText(/Too many attempts for this email/, { timeout: 2_000 })
          .catch(() => undefined);
      if (/Too many attempts/.test(await error.innerText())) refusedAt = i;
    }
    expect(refusedAt).toBeGreaterThan(10);
    expect(refusedAt).toBeLessThanOrEqual(Math.min(19, 11 + Math.ceil((Date.now() - started) / 12_000)));
    expect(answeredBy.size).toBe(2);
    // keyed on the address nginx saw (X-Forwarded-For, trusted here), as well as on the account
    const db = await openStore(store.url);
    try {
      const keys = (await db.prisma.rateBucket.findMany({ select: { key: true } })).map((r) => r.key);
      expect(keys).toEqual(expect.arrayContaining(["login:acct:nobody@nginx.test", "login:addr:127.0.0.1"]));
    } finally {
      await db.close();
    }

    // sign in through the proxy: the session cookie is Secure, and holds on both processes
    await page.goto(`${base}/login`);
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("banner").getByText(EMAIL)).toBeVisible();
    const session = (await page.context().cookies()).find((c) => c.name === "sw_session");
    expect(session?.secure).toBe(true);
    expect(session?.httpOnly).toBe(true);
    const upstreams = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const r = await page.request.get(`${base}/api/v1/jobs`);
      expect(r.status()).toBe(200); // private mode: the session is known to whichever process answers
      upstreams.add(r.headers()["x-upstream"]);
    }
    expect(upstreams.size).toBe(2);

    // CSRF: a cookie-authenticated write from the public origin is accepted, from another refused
    const body = fs.readFileSync(EXAMPLE, "utf8");
    const same = await page.request.post(`${base}/api/v1/runs`, { data: body, headers: { origin: base } });
    expect(same.status()).toBe(201);
    const cross = await page.request.post(`${base}/api/v1/runs`, { data: body, headers: { origin: "https://evil.example" } });
    expect(cross.status()).toBe(403);

    // the load made through one process is read by both, directly
    for (const s of servers) {
      const runs = (await (await fetch(`${s.url}/api/v1/runs`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        key: string;
      }[];
      expect(runs.map((r) => r.key)).toContain("sim-delta-2b__list-procedures-demo__2026-06-01");
    }

    // one write budget (6, then 1 a minute) over both processes: 12 writes, 6 granted
    const api = await playwright.request.newContext();
    const statuses: number[] = [];
    const via = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const r = await api.post(`${base}/api/v1/runs`, { data: "", headers: { authorization: `Bearer ${token}` } });
      statuses.push(r.status());
      via.add(r.headers()["x-upstream"]);
    }
    expect(via.size).toBe(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    await api.dispose();
  } catch (e) {
    for (const s of servers) console.error(s.output().slice(-2000));
    console.error(fs.existsSync(path.join(dir, "error.log")) ? fs.readFileSync(path.join(dir, "error.log"), "utf8") : "");
    throw e;
  } finally {
    if (nginx?.pid && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx!.once("exit", r));
      process.kill(-nginx.pid, "SIGTERM");
      await exited;
    }
    for (const s of servers) await s.kill9();
    await store?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
