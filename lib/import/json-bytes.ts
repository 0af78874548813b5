// The bytes of JSON's structure, for the scanners that find a document's parts without parsing
// it (lib/import/json-document.ts, lib/import/json-layout.ts).

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;

export const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
