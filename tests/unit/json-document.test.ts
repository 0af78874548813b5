// The chunked document reader against JSON.parse of the whole text: for any text, cut into
// any chunks, it refuses exactly what JSON.parse refuses, and otherwise gives the same
// document (the split member's elements in order, zeros in their place).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonDocumentError, parseSplitDocument } from "../../lib/import/json-document";
import { fileChunks } from "../../lib/store/read-lines";

const SPLIT = "step_logs";

/** `text`'s bytes cut at the given fractions (each chunk a fresh view of one reused buffer, as fileChunks gives them). */
function* chunked(bytes: Buffer, cuts: number[]): Generator<Buffer> {
  const at = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
  const reused = Buffer.alloc(bytes.length);
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to <= from) continue;
    bytes.copy(reused, 0, from, to);
    yield reused.subarray(0, to - from);
    reused.fill(0x7b); // a chunk kept past its turn would now read as "{{{…"
    from = to;
  }
}

type Outcome = { ok: true; doc: unknown; elements: unknown[] } | { ok: false };

function viaSplit(bytes: Buffer, cuts: number[]): Outcome {
  const elements: unknown[] = [];
  try {
    const doc = parseSplitDocument(chunked(bytes, cuts), SPLIT, (v, i) => {
      expect(i).toBe(elements.length);
      elements.push(v);
    });
    return { ok: true, doc, elements };
  } catch (e) {
    if (!(e instanceof JsonDocumentError)) throw e;
    return { ok: false };
  }
}

/** What the old reader made of the same bytes, in the shape the new one gives. */
function viaParse(bytes: Buffer): Outcome {
  let text = bytes.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  const o = doc as Record<string, unknown>;
  if (o && typeof o === "object" && !Array.isArray(o) && Array.isArray(o[SPLIT])) {
    const elements = o[SPLIT] as unknown[];
    return { ok: true, doc: { ...o, [SPLIT]: elements.map(() => 0) }, elements };
  }
  return { ok: true, doc, elements: [] };
}

// Step logs shaped as measuring-execution's (each element an object whose first key is "step"),
// some holding objects that start the same way, so that where the reader guesses an element
// ends without scanning it, the guess is sometimes wrong.
const stepLog = fc.record({
  step: fc.nat(),
  instances: fc.array(fc.oneof(fc.record({ step: fc.nat(), v: fc.jsonValue({ maxDepth: 1 }) }), fc.jsonValue({ maxDepth: 2 })), {
    maxLength: 3,
  }),
  n: fc.jsonValue({ maxDepth: 1 }),
});
const member = fc.oneof(fc.constant(SPLIT), fc.constant("config"), fc.string({ maxLength: 6 }), fc.constant('ü,["}'));
const documents = fc
  .tuple(
    fc.array(fc.tuple(member, fc.jsonValue({ maxDepth: 3 })), { maxLength: 4 }),
    fc.oneof(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }), fc.array(stepLog, { maxLength: 6 })),
    fc.boolean(),
    fc.constantFrom(0, 1, "\t"),
    fc.nat(),
  )
  .map(([members, logs, bom, indent, at]) => {
    const others = new Map(members.filter(([k]) => k !== SPLIT));
    const entries: [string, unknown][] = [...others];
    entries.splice(at % (entries.length + 1), 0, [SPLIT, logs]);
    return (bom ? "\ufeff" : "") + JSON.stringify(Object.fromEntries(entries), null, indent);
  });
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 });

describe("parseSplitDocument", () => {
  it("gives JSON.parse's document and the split member's elements, in any chunks", () => {
    fc.assert(
      fc.property(documents, cuts, (text, c) => {
        const bytes = Buffer.from(text);
        const want = viaParse(bytes);
        expect(want.ok).toBe(true);
        expect(viaSplit(bytes, c)).toEqual(want);
      }),
      { numRuns: 400 },
    );
  });

  it("refuses exactly what JSON.parse refuses: cut, mutated and inserted bytes", () => {
    const edits = fc.array(
      fc.tuple(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(...'{}[],:"\\ 0ab\u00e9'.split("")),
        fc.constantFrom("set", "insert", "cut"),
      ),
      { minLength: 1, maxLength: 3 },
    );
    fc.assert(
      fc.property(documents, edits, cuts, (text, es, c) => {
        let s = text;
        for (const [at, ch, how] of es) {
          const i = Math.floor(at * s.length);
          s = how === "cut" ? s.slice(0, i) : s.slice(0, i) + ch + s.slice(how === "set" ? i + 1 : i);
        }
        const bytes = Buffer.from(s);
        const want = viaParse(bytes);
        const got = viaSplit(bytes, c);
        if (!want.ok || !got.ok) expect(got.ok).toBe(want.ok);
        else expect(got).toEqual(want);
      }),
      { numRuns: 2000 },
    );
  });

  it("splits nothing but the top-level object's member, whatever the cuts", () => {
    const texts = [
      '{"a":"step_logs","b":["x"],"step_logs" : [ {"k":"],\\"[{"} , [1,[2]] ,"é\\u00e9",-0.5e3,null ],"z":{"step_logs":[3]}}',
      '["step_logs",["not split"],{"step_logs":[1]}]',
      '{"step_logs":{"inner":[1,2]},"x":[3]}',
      '{"step_logs":["a\\\\",{"b\\\\\\"c":"\\\\\\\\"}],"k\\\\":1}',
    ];
    for (const text of texts) {
      const bytes = Buffer.from(text);
      const want = viaParse(bytes);
      for (let i = 0; i <= bytes.length; i++) {
        for (let j = i; j <= bytes.length; j += 3) expect(viaSplit(bytes, [i / bytes.length, j / bytes.length])).toEqual(want);
      }
    }
    expect(viaParse(Buffer.from(texts[0]))).toMatchObject({ ok: true, elements: { length: 5 } });
  });

  it("names the element that is not JSON", () => {
    const bytes = Buffer.from('{"step_logs":[{"step":0},{"step":1,}],"n":2}');
    expect(() => parseSplitDocument(chunked(bytes, [0.5]), SPLIT, () => {})).toThrow(/^step_logs\[1\]: /);
  });

  it("refuses the split member twice (JSON.parse would keep the last silently)", () => {
    const bytes = Buffer.from('{"step_logs":[1],"step_logs":[2]}');
    expect(() => parseSplitDocument(chunked(bytes, []), SPLIT, () => {})).toThrow(/appears twice/);
  });

  it("reads a file in 1 MB chunks, elements across their boundaries", () => {
    const logs = Array.from({ length: 40 }, (_, s) => ({ step: s, text: "é€".repeat(20_000 + s) }));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "json-doc-")), "doc.json");
    fs.writeFileSync(file, JSON.stringify({ step_logs: logs, n: 40 }));
    const got: unknown[] = [];
    expect(parseSplitDocument(fileChunks(file), SPLIT, (v) => got.push(v))).toEqual({ step_logs: logs.map(() => 0), n: 40 });
    expect(got).toEqual(logs);
    fs.rmSync(path.dirname(file), { recursive: true });
  });
});
