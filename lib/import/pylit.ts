// A small, safe reader of Python literal text as written by `str()` / `repr()`:
// lists, tuples, dicts, sets, strings (single, double, with escapes and b/r/u prefixes),
// ints, floats (inf, nan), True, False, None. Never evaluates anything: any other text is an
// error that says where it stopped. measuring-execution stores lists this way
// (`"['<NoOp>', 5]"`, `"[1.0, 0.98]"`), so these values must be read, not run.
export type PyValue = null | boolean | number | string | PyValue[] | { [k: string]: PyValue };

export class PyLiteralError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(`${message} at character ${at}`);
  }
}

const MAX_DEPTH = 200; // a hostile input must not blow the stack

export function parsePyLiteral(text: string): PyValue {
  const p = new Parser(text);
  p.ws();
  const v = p.value(0);
  p.ws();
  if (p.i < text.length) throw new PyLiteralError("unexpected text after the value", p.i);
  return v;
}

/** parsePyLiteral that returns null instead of throwing (for optional fields). */
export function tryPyLiteral(text: string): { ok: true; value: PyValue } | { ok: false; error: string } {
  try {
    return { ok: true, value: parsePyLiteral(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

const SIMPLE_ESC: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
  "\n": "",
};

class Parser {
  i = 0;
  constructor(readonly s: string) {}

  ws() {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  value(depth: number): PyValue {
    if (depth > MAX_DEPTH) throw new PyLiteralError("nesting too deep", this.i);
    const c = this.s[this.i];
    if (c === undefined) throw new PyLiteralError("unexpected end of text", this.i);
    if (c === "[") return this.seq("]", depth);
    if (c === "(") return this.seq(")", depth);
    if (c === "{") return this.dictOrSet(depth);
    if (c === "'" || c === '"') return this.str("");
    const m = /^([rRbBuU]{1,2})(['"])/.exec(this.s.slice(this.i, this.i + 3));
    if (m) {
      this.i += m[1].length;
      return this.str(m[1].toLowerCase());
    }
    return this.atom();
  }

  seq(close: string, depth: number): PyValue[] {
    this.i++;
    const out: PyValue[] = [];
    for (;;) {
      this.ws();
      if (this.s[this.i] === close) {
        this.i++;
        return out;
      }
      out.push(this.value(depth + 1));
      this.ws();
      const c = this.s[this.i];
      if (c === ",") this.i++;
      else if (c !== close) throw new PyLiteralError(`expected ',' or '${close}'`, this.i);
    }
  }

  dictOrSet(depth: number): PyValue {
    this.i++;
    const obj: { [k: string]: PyValue } = {};
    const set: PyValue[] = [];
    let kind: "dict" | "set" | null = null;
    for (;;) {
      this.ws();
      if (this.s[this.i] === "}") {
        this.i++;
        return kind === "set" ? set : obj;
      }
      const k = this.value(depth + 1);
      this.ws();
      if (this.s[this.i] === ":" && kind !== "set") {
        kind = "dict";
        this.i++;
        this.ws();
        const v = this.value(depth + 1);
        if (k !== null && typeof k === "object") throw new PyLiteralError("a dict key must be a string, number, bool or None", this.i);
        obj[String(k)] = v;
      } else if (kind === "dict") throw new PyLiteralError("expected ':'", this.i);
      else {
        kind = "set";
        set.push(k);
      }
      this.ws();
      const c = this.s[this.i];
      if (c === ",") this.i++;
      else if (c !== "}") throw new PyLiteralError("expected ',' or '}'", this.i);
    }
  }

  str(prefix: string): string {
    const q = this.s[this.i];
    const triple = this.s.startsWith(q.repeat(3), this.i);
    const start = this.i;
    this.i += triple ? 3 : 1;
    const raw = prefix.includes("r");
    let out = "";
    for (;;) {
      if (this.i >= this.s.length) throw new PyLiteralError("unterminated string", start);
      const c = this.s[this.i];
      if (triple ? this.s.startsWith(q.repeat(3), this.i) : c === q) {
        this.i += triple ? 3 : 1;
        return out;
      }
      if (!triple && c === "\n") throw new PyLiteralError("newline inside a string", this.i);
      if (c !== "\\") {
        out += c;
        this.i++;
        continue;
      }
      const e = this.s[this.i + 1];
      if (e === undefined) throw new PyLiteralError("unterminated string", start);
      if (raw) {
        out += c + e;
        this.i += 2;
        continue;
      }
      if (e in SIMPLE_ESC && !(e === "0" && /[0-7]/.test(this.s[this.i + 2] ?? ""))) {
        out += SIMPLE_ESC[e];
        this.i += 2;
        continue;
      }
      const hexLen = e === "x" ? 2 : e === "u" && !prefix.includes("b") ? 4 : e === "U" && !prefix.includes("b") ? 8 : 0;
      if (hexLen) {
        const hex = this.s.slice(this.i + 2, this.i + 2 + hexLen);
        if (!new RegExp(`^[0-9a-fA-F]{${hexLen}}$`).test(hex)) throw new PyLiteralError(`bad \\${e} escape`, this.i);
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff) throw new PyLiteralError("code point out of range", this.i);
        out += String.fromCodePoint(cp);
        this.i += 2 + hexLen;
        continue;
      }
      const oct = /^[0-7]{1,3}/.exec(this.s.slice(this.i + 1, this.i + 4));
      if (oct) {
        out += String.fromCharCode(parseInt(oct[0], 8));
        this.i += 1 + oct[0].length;
        continue;
      }
      out += c + e; // Python keeps unknown escapes as written
      this.i += 2;
    }
  }

  atom(): PyValue {
    const m = /^[A-Za-z_][A-Za-z0-9_]*|^[+-]?(\d[\d_]*\.?[\d_]*([eE][+-]?\d+)?|\.\d[\d_]*([eE][+-]?\d+)?|inf|nan)/.exec(
      this.s.slice(this.i, this.i + 400),
    );
    if (!m) throw new PyLiteralError(`unexpected character ${JSON.stringify(this.s[this.i])}`, this.i);
    const t = m[0];
    const at = this.i;
    this.i += t.length;
    if (t === "True") return true;
    if (t === "False") return false;
    if (t === "None") return null;
    if (/^[+-]?inf$/.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(t)) return NaN;
    if (/^[A-Za-z_]/.test(t)) {
      // numpy reprs inside str(list): np.int64(5), np.float64(0.5) → the number
      if (/^(np|numpy)$/.test(t) && this.s[this.i] === ".") return this.numpyScalar(at);
      throw new PyLiteralError(`unknown name '${t}' (only True, False, None are allowed)`, at);
    }
    const n = Number(t.replace(/_/g, ""));
    if (Number.isNaN(n)) throw new PyLiteralError(`bad number '${t}'`, at);
    return n;
  }

  numpyScalar(at: number): PyValue {
    const m = /^\.(int|uint|float|bool_)(8|16|32|64)?\(/.exec(this.s.slice(this.i, this.i + 20));
    if (!m) throw new PyLiteralError("unknown numpy value", at);
    this.i += m[0].length;
    this.ws();
    const v = this.atom();
    this.ws();
    if (this.s[this.i] !== ")") throw new PyLiteralError("expected ')'", this.i);
    this.i++;
    return v;
  }
}
