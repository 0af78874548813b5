import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { LoginForm } from "@/components/auth/login-form";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { currentUser } from "@/lib/auth/server";
import { safeNextPath } from "@/lib/auth/policy";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function LoginPage({ searchParams }: Props) {
  const sp = await searchParams;
  const next = safeNextPath(typeof sp.next === "string" ? sp.next : "/");
  const need = typeof sp.need === "string" ? sp.need : null;
  const user = await currentUser();
  return (
    <div className="mx-auto max-w-md">
      <PageHeader
        title="Sign in"
        subtitle={
          env.STEPWISE_ACCESS === "private"
            ? "This dashboard is private: sign in to see it."
            : "Reading is open; sign in to load runs, start jobs and share links."
        }
      />
      {sp.signed_out ? <p className="mb-3 text-sm text-neutral-600">You are signed out.</p> : null}
      {user ? (
        <p className="mb-3 text-sm text-neutral-700" data-testid="signed-in-as">
          Signed in as {user.email} ({user.role}){need ? `; this page needs the ${need} role` : ""}.{" "}
          <Link className="underline" href="/logout">
            Sign out
          </Link>
        </p>
      ) : null}
      <Card>
        <LoginForm next={next} />
      </Card>
      <p className="mt-3 text-xs text-neutral-500">
        Accounts are made on the server: stepwise user create --email … --role viewer|editor|admin --password-stdin
      </p>
    </div>
  );
}
