"use client";
// Sign-in form: a server action (lib/auth/actions.ts), so it works before hydration too.
import { useActionState } from "react";
import { CONTROL, Field } from "@/components/ui/field";
import { signInAction, type SignInState } from "@/lib/auth/actions";

export function LoginForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, { error: null, email: "" });
  return (
    <form action={action} className="space-y-3" data-testid="login-form">
      <input type="hidden" name="next" value={next} />
      <Field label="Email" htmlFor="login-email">
        <input id="login-email" name="email" type="email" autoComplete="username" required defaultValue={state.email} className={CONTROL} />
      </Field>
      <Field label="Password" htmlFor="login-password">
        <input id="login-password" name="password" type="password" autoComplete="current-password" required className={CONTROL} />
      </Field>
      {state.error ? (
        <p role="alert" data-testid="login-error" className="text-sm text-red-700">
          {state.error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-sky-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-sky-800 disabled:opacity-60"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
