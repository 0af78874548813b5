import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ZipReader } from "../../lib/import/zip";
import { writeTemp } from "../fixtures/import/generate";
import { zipBytes } from "../fixtures/import/inspect-logs";

// ZipReader reads members that follow each other in windows of 1 MB and decodes zstd members
// into space it reuses (lib/import/zip.ts): whatever the order members are asked for, each must
// come back whole and exact.
describe.each([
  ["deflate", 8],
  ["zstd", 93],
] as const)("ZipReader, %s members", (_, method) => {
  // small members, a run of them that spans several windows, and members larger than a window
  const members = Array.from({ length: 400 }, (_, i) => ({
    name: `samples/${i}_epoch_1.json`,
    data:
      i % 97 === 5 ? randomBytes(1_500_000 + i) : Buffer.from(JSON.stringify({ i, text: randomBytes(2000 + i * 13).toString("base64") })),
  }));
  const file = writeTemp(`members-${method}.eval`, zipBytes(members, method));

  it.each([
    ["in the archive's order", members.map((_, i) => i)],
    ["backwards", members.map((_, i) => members.length - 1 - i)],
    [
      "every other member, then the rest",
      [...members.keys()].filter((i) => i % 2 === 0).concat([...members.keys()].filter((i) => i % 2 === 1)),
    ],
  ])("gives every member's bytes read %s", async (_, order) => {
    const zip = await ZipReader.open(file);
    try {
      for (const i of order) expect((await zip.read(members[i].name)).equals(members[i].data), members[i].name).toBe(true);
    } finally {
      await zip.close();
    }
  });
});
