"use client";
// Mint and revoke share links of one run (POST / DELETE /api/v1/share, same-origin with the
// editor's session). A new link's URL is shown once: the store keeps only its hash.
import { useState } from "react";
import { CONTROL, Field } from "@/components/ui/field";
import { issuesText, shareCreateSchema } from "@/lib/auth/schemas";
import type { ShareLinkJson } from "@/lib/auth/share-links";

const EXPIRY = [
  { value: "", label: "Never" },
  { value: "1", label: "1 day" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
];

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "never");

export function ShareLinkForm({ runKey, initialLinks }: { runKey: string; initialLinks: ShareLinkJson[] }) {
  const [links, setLinks] = useState(initialLinks);
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function refresh() {
    const r = await fetch(`/api/v1/share?run=${encodeURIComponent(runKey)}`, { cache: "no-store" });
    if (r.ok) setLinks((await r.json()) as ShareLinkJson[]);
  }

  async function create(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const parsed = shareCreateSchema.safeParse({
      run: runKey,
      expiresInDays: form.get("expiresInDays") ?? "",
      label: form.get("label") ?? "",
    });
    if (!parsed.success) return setError(issuesText(parsed.error));
    setBusy(true);
    setError(null);
    try {
      const r = await fetch("/api/v1/share", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(parsed.data),
      });
      const body = (await r.json().catch(() => ({}))) as { path?: string; error?: string };
      if (!r.ok || !body.path) return setError(body.error ?? `HTTP ${r.status}`);
      setCreated(window.location.origin + body.path);
      await refresh();
    } finally {
      setBusy(false);
    }
  }

  async function revoke(id: number) {
    const r = await fetch(`/api/v1/share/${id}`, { method: "DELETE" });
    if (!r.ok) setError(((await r.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${r.status}`);
    await refresh();
  }

  return (
    <section aria-label="Share links" data-testid="share-panel" className="rounded-lg border border-neutral-200 bg-white p-4 shadow-sm">
      <h2 className="text-sm font-semibold text-neutral-900">Share this run</h2>
      <p className="mt-0.5 text-xs text-neutral-500">
        Anyone with the link can read this run (its page, generations and metrics), nothing else, without an account.
      </p>
      <form onSubmit={create} method="post" className="mt-3 flex flex-wrap items-end gap-3">
        <Field label="Expires" htmlFor="share-expiry">
          <select id="share-expiry" name="expiresInDays" className={CONTROL} defaultValue="7">
            {EXPIRY.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Note (optional)" htmlFor="share-label" className="min-w-48 flex-1">
          <input id="share-label" name="label" maxLength={200} className={CONTROL} placeholder="for reviewers" />
        </Field>
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-sky-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-sky-800 disabled:opacity-60"
        >
          Create link
        </button>
      </form>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {created ? (
        <div className="mt-3">
          <label htmlFor="share-created" className="mb-1 block text-xs font-medium text-neutral-600">
            New link (shown once: copy it now)
          </label>
          <input
            id="share-created"
            data-testid="share-url"
            readOnly
            value={created}
            onFocus={(e) => e.currentTarget.select()}
            className={CONTROL + " font-mono"}
          />
        </div>
      ) : null}
      {links.length ? (
        <ul className="mt-3 divide-y divide-neutral-100 text-sm" data-testid="share-links">
          {links.map((l) => (
            <li key={l.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5">
              <span className="min-w-0 break-words text-neutral-700">
                #{l.id} {l.label ? `· ${l.label} ` : ""}· expires {day(l.expires_at)} {l.created_by ? `· by ${l.created_by}` : ""}
                {!l.active ? <span className="ml-1 text-neutral-400">({l.revoked_at ? "revoked" : "expired"})</span> : null}
              </span>
              {l.active ? (
                <button
                  type="button"
                  onClick={() => revoke(l.id)}
                  className="rounded border border-neutral-300 px-2 py-0.5 text-xs text-neutral-700 hover:bg-neutral-50"
                >
                  Revoke
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
