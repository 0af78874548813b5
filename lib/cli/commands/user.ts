import { parseArgs } from "node:util";
import { userCreateSchema, issuesText } from "../../auth/schemas";
import { createUser, listUsers, setPassword, UserExistsError } from "../../auth/users";
import { withStore } from "../store";
import { UsageError } from "../usage-error";

// `stepwise user create --email E --role R [--password-stdin]`, `user list`,
// `user password --email E --password-stdin`. A password is only ever read from stdin: on the
// command line it would land in the shell history and in `ps`.
const USAGE =
  "usage: stepwise user create --email E --role viewer|editor|admin [--password-stdin] | list | password --email E --password-stdin";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  // One line: the trailing newline of `echo` or a here-string is not part of the password.
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

export async function userCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: "string" }, role: { type: "string" }, "password-stdin": { type: "boolean" }, json: { type: "boolean" } },
  });
  if (sub === "create") {
    const password = values["password-stdin"] ? await readStdin() : undefined;
    const parsed = userCreateSchema.safeParse({ email: values.email, role: values.role, password });
    if (!parsed.success) throw new UsageError(`${issuesText(parsed.error)}\n${USAGE}`);
    return withStore(async (s) => {
      try {
        const u = await createUser(s.prisma, parsed.data);
        console.log(
          `user ${u.id} ${u.email} (${u.role}) created${u.hasPassword ? "" : "; no password yet: set one with `stepwise user password --email … --password-stdin`"}`,
        );
        return 0;
      } catch (e) {
        if (e instanceof UserExistsError) {
          console.error(`stepwise: ${e.message}`);
          return 1;
        }
        throw e;
      }
    });
  }
  if (sub === "list") {
    return withStore(async (s) => {
      const users = await listUsers(s.prisma);
      if (values.json)
        console.log(
          JSON.stringify(
            users.map((u) => ({
              id: u.id,
              email: u.email,
              role: u.role,
              created_at: u.createdAt.toISOString(),
              has_password: u.hasPassword,
              disabled: u.disabled,
            })),
          ),
        );
      else
        for (const u of users)
          console.log(`${u.id}\t${u.email}\t${u.role}\t${u.hasPassword ? "password" : "no password"}${u.disabled ? "\tdisabled" : ""}`);
      return 0;
    });
  }
  if (sub === "password") {
    const parsed = userCreateSchema
      .pick({ email: true, password: true })
      .safeParse({ email: values.email, password: values["password-stdin"] ? await readStdin() : undefined });
    if (!parsed.success || !parsed.data.password)
      throw new UsageError(`${parsed.success ? "password: send it on stdin with --password-stdin" : issuesText(parsed.error)}\n${USAGE}`);
    const { email, password } = parsed.data;
    return withStore(async (s) => {
      const ok = await setPassword(s.prisma, email, password);
      console.log(ok ? "password set; that user's sessions are signed out" : "no such user");
      return ok ? 0 : 1;
    });
  }
  throw new UsageError(USAGE);
}
