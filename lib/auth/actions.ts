"use server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getStore } from "../db";
import { env } from "../env";
import { clientAddress } from "./client-address";
import { cookieOptions, isSameOrigin, isSecureRequest } from "./cookies";
import { safeNextPath } from "./policy";
import { issuesText, loginSchema } from "./schemas";
import { takeSignIn } from "./sign-in-limit";
import { createSession, endSession, SESSION_COOKIE } from "./sessions";
import { authenticate } from "./users";

// Server actions of the sign-in and sign-out forms. Next refuses a server action whose Origin
// names another host; it lets a request without Origin through, so these check again and
// require Origin or Fetch Metadata to say same-origin (docs/security.md, CSRF).
export interface SignInState {
  error: string | null;
  email: string;
}

export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  const h = await headers();
  const email = String(form.get("email") ?? "");
  if (!isSameOrigin(h)) return { error: "This form must be sent from this site.", email };
  const parsed = loginSchema.safeParse({ email, password: form.get("password") ?? "", next: form.get("next") ?? undefined });
  if (!parsed.success) return { error: issuesText(parsed.error), email };
  const { prisma } = await getStore();
  const wait = await takeSignIn(prisma, parsed.data.email, clientAddress(h, env.STEPWISE_TRUST_PROXY));
  if (!wait.ok)
    return {
      error: `Too many attempts ${wait.by === "account" ? "for this email" : "from your address"}: try again in ${wait.retryAfterSeconds} s.`,
      email,
    };
  const user = await authenticate(prisma, parsed.data.email, parsed.data.password);
  // One message for an unknown email and a wrong password: the form does not reveal who has an account.
  if (!user) return { error: "Wrong email or password.", email };
  const s = await createSession(prisma, user.id, env.STEPWISE_SESSION_HOURS);
  (await cookies()).set(SESSION_COOKIE, s.secret, cookieOptions(isSecureRequest(h), s.expiresAt));
  redirect(safeNextPath(parsed.data.next));
}

export async function signOutAction(): Promise<void> {
  const h = await headers();
  if (!isSameOrigin(h)) redirect("/logout");
  const jar = await cookies();
  await endSession((await getStore()).prisma, jar.get(SESSION_COOKIE)?.value);
  jar.set(SESSION_COOKIE, "", { ...cookieOptions(isSecureRequest(h)), maxAge: 0 });
  redirect("/login?signed_out=1");
}
