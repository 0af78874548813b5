/** JSON.parse for text the store wrote itself: null or unparseable text gives `fallback` instead of throwing. */
export function parseJsonOr<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
