/** A command's arguments are wrong: the CLI prints the message alone and exits with 2. */
export class UsageError extends Error {}
