"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { deleteRun } from "../store/delete-run";
import { leaderboardHref } from "../url/leaderboard";
import { isSameOrigin } from "./cookies";
import { canAdmin } from "./policy";
import { readContext } from "./server";

// The run page's delete (components/auth/delete-run-form.tsx): admins only, same-origin only
// (Next refuses a foreign Origin but lets a request without one through, as for sign-in), and
// confirmed by typing the run key. The store side is `stepwise delete`'s (lib/store/delete-run.ts).

export interface DeleteRunState {
  error: string | null;
}

export async function deleteRunAction(_prev: DeleteRunState, form: FormData): Promise<DeleteRunState> {
  const h = await headers();
  if (!isSameOrigin(h)) return { error: "This form must be sent from this site." };
  const ctx = await readContext();
  if (!canAdmin(ctx.principal)) return { error: "Only an admin can delete runs." };
  const key = String(form.get("key") ?? "");
  const typed = String(form.get("confirm") ?? "").trim();
  if (!key) return { error: "No run named." };
  if (typed !== key) return { error: "Type the run key exactly as shown to confirm." };
  const deleted = await deleteRun(ctx.store.raw, key, { sharesEventLoop: ctx.store.sharesEventLoop });
  if (!deleted) return { error: `No run with key '${key}': nothing deleted.` };
  redirect(leaderboardHref({}));
}
