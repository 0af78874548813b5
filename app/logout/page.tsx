import type { Metadata } from "next";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { signOutAction } from "@/lib/auth/actions";
import { currentUser } from "@/lib/auth/server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign out" };

// Signing out is a POST (a form with a server action): a GET that signed out could be
// triggered by any image tag on another site.
export default async function LogoutPage() {
  const user = await currentUser();
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title="Sign out" subtitle={user ? `Signed in as ${user.email} (${user.role}).` : "You are not signed in."} />
      {user ? (
        <Card>
          <form action={signOutAction}>
            <button type="submit" className="rounded-md bg-neutral-800 px-3 py-1.5 text-sm font-medium text-white hover:bg-neutral-900">
              Sign out
            </button>
          </form>
        </Card>
      ) : null}
    </div>
  );
}
