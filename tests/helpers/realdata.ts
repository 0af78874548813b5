import { describe } from "vitest";
import { REALDATA, realdataAvailable } from "./shared-data";

const announced = new Set<string>();

/**
 * `describe` for tests that read a folder of ../shared: skipped when `available` is false, with
 * one printed line that says which tests and why.
 */
export function describeShared(name: string, available: boolean, why: string, body: () => void): void {
  if (!available && !announced.has(name)) {
    announced.add(name);
    console.log(`SKIPPED "${name}": ${why}`);
  }
  describe.skipIf(!available)(name, body);
}

/** `describe` for tests that read ../shared/realdata (third-party files the repository may not hold). */
export function describeRealdata(name: string, body: () => void): void {
  describeShared(
    name,
    realdataAvailable,
    `${REALDATA} is absent (third-party files that cannot be copied into the repository; CI provides them)`,
    body,
  );
}
