/** ASCII letters folded to lower case, nothing else (the case folding search applies on both stores). */
export function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
