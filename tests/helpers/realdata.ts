import { describe } from "vitest";
import { REALDATA, realdataAvailable } from "./shared-data";

const announced = new Set<string>();

/**
 * `describe` for tests that read ../shared/realdata: skipped when the folder is absent, with one
 * printed line that says which tests and why (the files cannot be copied into the repository).
 */
export function describeRealdata(name: string, body: () => void): void {
  if (!realdataAvailable && !announced.has(name)) {
    announced.add(name);
    console.log(`SKIPPED "${name}": ${REALDATA} is absent (third-party files that cannot be copied into the repository; CI provides them)`);
  }
  describe.skipIf(!realdataAvailable)(name, body);
}
