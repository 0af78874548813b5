import { routeParam } from "../url/shared";
import { jsonError } from "./responses";

// Route parameters of the API, decoded the one shared way (routeParam) and checked before any
// read: what cannot be a run key is a 400, not a store error.
const MAX_KEY = 1000;

export function runKeyParam(segment: string): { ok: true; key: string } | { ok: false; response: Response } {
  const key = routeParam(segment);
  // NUL cannot be stored in PostgreSQL text; other control characters never occur in keys.
  if (key === "" || key.length > MAX_KEY || /[\u0000-\u001f\u007f]/.test(key))
    return { ok: false, response: jsonError(400, `run key: 1 to ${MAX_KEY} characters, no control characters`) };
  return { ok: true, key };
}
