import { z } from "zod";
import { ROLES } from "./policy";

// One zod schema per input, shared by the CLI (`stepwise user …`), the forms' server actions and
// the share-link API.
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "email: at most 254 characters")
  .regex(/^[^\s@<>"]+@[^\s@<>"]+$/, "email: not an email address");

export const roleSchema = z.enum(ROLES, { message: `role: one of ${ROLES.join(", ")}` });

// Length, not composition rules (NIST SP 800-63B); the upper bound keeps scrypt input sane.
export const passwordSchema = z.string().min(10, "password: at least 10 characters").max(1024, "password: at most 1024 characters");

export const userCreateSchema = z.object({ email: emailSchema, role: roleSchema, password: passwordSchema.optional() });
export type UserCreateInput = z.infer<typeof userCreateSchema>;

export const loginSchema = z.object({
  email: emailSchema,
  // No length rule at sign-in: a wrong password of any length is just "wrong".
  password: z.string().min(1, "password: required").max(1024),
  next: z.string().max(2000).optional(),
});

export const shareCreateSchema = z.object({
  run: z.string().trim().min(1, "run: required").max(1000),
  /** days until the link stops working; empty = never */
  expiresInDays: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().int().min(1).max(365).optional()),
  label: z.string().trim().max(200).optional(),
});
export type ShareCreateInput = z.infer<typeof shareCreateSchema>;

export const shareRevokeSchema = z.object({ id: z.coerce.number().int().positive() });

export function issuesText(e: z.ZodError): string {
  return e.issues.map((i) => i.message).join("; ");
}
