"use client";
// Cancel button of a queued or running job: DELETE /api/v1/jobs/{id} with the session cookie of a
// signed-in editor, or with an API token typed here. A running job stops within a heartbeat; the
// page refreshes until its status says so.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { CONTROL } from "@/components/ui/field";

export function CancelJob({ jobId, signedInEditor }: { jobId: string; signedInEditor: boolean }) {
  const router = useRouter();
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function cancel(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/v1/jobs/${encodeURIComponent(jobId)}`, {
        method: "DELETE",
        headers: token.trim() ? { authorization: `Bearer ${token.trim()}` } : {},
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        setError(body.error ?? `HTTP ${res.status}`);
      }
      router.refresh();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" onSubmit={cancel} className="flex flex-wrap items-end gap-2" aria-label="Cancel this job">
      {signedInEditor ? null : (
        <label className="text-sm text-neutral-600">
          API token
          <input
            name="token"
            type="password"
            autoComplete="off"
            required
            value={token}
            onChange={(e) => setToken(e.target.value)}
            className={`${CONTROL} ml-2 w-64`}
          />
        </label>
      )}
      <button
        type="submit"
        disabled={busy}
        className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 shadow-sm hover:bg-red-50 disabled:opacity-60"
      >
        {busy ? "Cancelling…" : "Cancel job"}
      </button>
      {error ? (
        <p role="alert" className="w-full text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </form>
  );
}
