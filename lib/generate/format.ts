// Number text as the simulated model writes it: plain decimals, never exponent notation
// (the parsers read plain numbers). toFixed is exactly specified by ECMAScript, so the
// text is identical on every platform.

/** Number text with enough digits that rounding never looks like an arithmetic error. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  let a = Math.abs(v);
  let decimals: number;
  if (a >= 1) {
    let intDigits = 1;
    while (a >= 10 && intDigits < 22) {
      a /= 10;
      intDigits++;
    }
    decimals = Math.max(4, 7 - intDigits);
  } else {
    decimals = 6;
    while (a > 0 && a < 0.1 && decimals < 20) {
      a *= 10;
      decimals++;
    }
  }
  return trimFixed(v.toFixed(decimals));
}

/** The answer as a model writes it: rounded to 3 decimals. */
export function formatAnswer(v: number): string {
  return trimFixed(v.toFixed(3));
}

function trimFixed(s: string): string {
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s === "-0" ? "0" : s;
}
