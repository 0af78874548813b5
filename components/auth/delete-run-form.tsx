"use client";

import { useActionState } from "react";
import { deleteRunAction, type DeleteRunState } from "@/lib/auth/delete-run-action";
import { CONTROL } from "@/components/ui/field";

/**
 * An admin's delete of one run, folded away until asked for and confirmed by typing the run
 * key (the page renders it for admins only; the action checks again).
 */
export function DeleteRunForm({ runKey, generations }: { runKey: string; generations: number }) {
  const [state, action, pending] = useActionState<DeleteRunState, FormData>(deleteRunAction, { error: null });
  return (
    <details className="group relative" data-testid="delete-run">
      <summary className="inline-flex cursor-pointer list-none items-center rounded-md border border-red-300 bg-white px-2.5 py-1.5 text-sm font-medium text-red-700 shadow-sm hover:bg-red-50">
        Delete…
      </summary>
      <form
        action={action}
        className="absolute right-0 z-20 mt-2 w-[min(24rem,calc(100vw-2rem))] space-y-2 rounded-lg border border-red-200 bg-white p-3 text-sm shadow-lg"
      >
        <p className="text-neutral-800">
          Deletes this run, its {generations.toLocaleString("en-US")} generations, its stored numbers and its share links. There is no undo.
        </p>
        <input type="hidden" name="key" value={runKey} />
        <label htmlFor="delete-confirm" className="block text-xs font-medium text-neutral-700">
          Type <span className="font-mono break-all select-all">{runKey}</span> to confirm
        </label>
        <input id="delete-confirm" name="confirm" autoComplete="off" spellCheck={false} className={CONTROL} required />
        {state.error ? (
          <p role="alert" className="text-red-700">
            {state.error}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-red-700 px-3 py-1.5 font-medium text-white hover:bg-red-800 disabled:opacity-60"
        >
          {pending ? "Deleting…" : "Delete this run"}
        </button>
      </form>
    </details>
  );
}
