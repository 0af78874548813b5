import { Link } from "@/components/ui/link";
import { unstable_rethrow } from "next/navigation";
import { currentUser } from "@/lib/auth/server";

/** Header corner: who is signed in, or a sign-in link. Reading cookies makes every page
 *  dynamically rendered, which the nonce CSP needs (static HTML would carry no nonce). */
export async function AuthNav() {
  let user: Awaited<ReturnType<typeof currentUser>> = null;
  try {
    user = await currentUser();
  } catch (e) {
    unstable_rethrow(e); // Next's own signals (dynamic rendering) must pass through
    // Store down: the page itself reports it; the header still renders.
  }
  return (
    <div className="ml-auto flex items-center gap-2 text-sm" data-testid="auth-nav">
      {user ? (
        <>
          <span className="text-neutral-600" title={user.role}>
            {user.email}
          </span>
          <Link href="/logout" className="rounded px-2 py-1 text-neutral-700 hover:bg-neutral-100" prefetch={false}>
            Sign out
          </Link>
        </>
      ) : (
        <Link href="/login" className="rounded px-2 py-1 text-neutral-700 hover:bg-neutral-100" prefetch={false}>
          Sign in
        </Link>
      )}
    </div>
  );
}
