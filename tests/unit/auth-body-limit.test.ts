import { describe, expect, it } from "vitest";
import { BodyTooLargeError, declaredOver, formatLimit, limitedBody, tooLarge } from "../../lib/api/body-limit";

const streamOf = (chunks: number[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const n of chunks) c.enqueue(new Uint8Array(n).fill(65));
      c.close();
    },
  });

async function drain(s: AsyncIterable<Buffer>): Promise<number> {
  let n = 0;
  for await (const c of s) n += c.length;
  return n;
}

describe("request body limits", () => {
  it("passes a body at the limit through unchanged", async () => {
    const { stream, exceeded } = limitedBody(streamOf([400, 600]), 1000);
    expect(await drain(stream)).toBe(1000);
    expect(exceeded()).toBe(false);
  });

  it("errors once a streamed body passes the limit", async () => {
    const { stream, exceeded } = limitedBody(streamOf([600, 600, 600]), 1000);
    await expect(drain(stream)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(exceeded()).toBe(true);
  });

  it("refuses a declared Content-Length over the limit before reading", () => {
    expect(declaredOver(new Headers({ "content-length": "1001" }), 1000)).toBe(true);
    expect(declaredOver(new Headers({ "content-length": "1000" }), 1000)).toBe(false);
    expect(declaredOver(new Headers(), 1000)).toBe(false);
  });

  it("answers 413 with a JSON error naming the limit", async () => {
    const r = tooLarge(5 * 1024 * 1024);
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ error: "the request body is over the limit of 5 MB", limit_bytes: 5 * 1024 * 1024 });
    expect(formatLimit(2 * 1024 ** 3)).toBe("2 GB");
  });
});
