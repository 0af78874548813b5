import type { Db } from "../db";
import { hashPassword, needsRehash, verifyPassword } from "./password";
import { isRole, type Role } from "./policy";
import { userCreateSchema, type UserCreateInput } from "./schemas";

export interface UserView {
  id: number;
  email: string;
  role: Role;
  createdAt: Date;
  hasPassword: boolean;
  disabled: boolean;
}

export class UserExistsError extends Error {}

export async function createUser(prisma: Db, input: UserCreateInput): Promise<UserView> {
  const u = userCreateSchema.parse(input);
  if (await prisma.user.findUnique({ where: { email: u.email } })) throw new UserExistsError(`a user with email ${u.email} exists`);
  const row = await prisma.user.create({
    data: { email: u.email, role: u.role, passwordHash: u.password ? await hashPassword(u.password) : null },
  });
  return view(row);
}

export async function listUsers(prisma: Db): Promise<UserView[]> {
  return (await prisma.user.findMany({ orderBy: { id: "asc" } })).map(view);
}

export async function setPassword(prisma: Db, email: string, password: string): Promise<boolean> {
  const r = await prisma.user.updateMany({ where: { email: email.toLowerCase() }, data: { passwordHash: await hashPassword(password) } });
  // A new password ends every session of that user.
  if (r.count) await prisma.session.deleteMany({ where: { user: { email: email.toLowerCase() } } });
  return r.count > 0;
}

/** The user for an email and password, or null; takes the same time whether the email exists or not. */
export async function authenticate(prisma: Db, email: string, password: string): Promise<UserView | null> {
  const row = await prisma.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  const ok = await verifyPassword(password, row?.passwordHash);
  if (!row || !ok || row.disabledAt || !isRole(row.role)) return null;
  if (row.passwordHash && needsRehash(row.passwordHash)) {
    await prisma.user.update({ where: { id: row.id }, data: { passwordHash: await hashPassword(password) } });
  }
  return view(row);
}

function view(row: {
  id: number;
  email: string;
  role: string;
  createdAt: Date;
  passwordHash: string | null;
  disabledAt: Date | null;
}): UserView {
  return {
    id: row.id,
    email: row.email,
    role: isRole(row.role) ? row.role : "viewer",
    createdAt: row.createdAt,
    hasPassword: row.passwordHash !== null,
    disabled: row.disabledAt !== null,
  };
}
