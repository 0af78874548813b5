/** Directory of the bundle `name` of `entries` ({ outName: path in the checkout }), built when stale. */
export function bundled(name: string, entries: Record<string, string>): Promise<string>;
