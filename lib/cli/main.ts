// Entry point of `stepwise` (bin/stepwise.mjs). Each command lives in lib/cli/commands.
const commands: Record<string, () => Promise<{ default?: unknown } & Record<string, unknown>>> = {};
console.log("stepwise", process.argv.slice(2).join(" "));
export {};
