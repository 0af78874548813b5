import { Link } from "@/components/ui/link";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <p className="text-sm font-semibold text-neutral-500">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-neutral-900">Not found</h1>
      <p className="mt-2 text-neutral-600">
        No run, item or page at this address. The run may have been replaced or removed, or the link was cut short.
      </p>
      <Link href="/" className="mt-6 inline-block rounded-md bg-neutral-900 px-3 py-2 text-sm font-medium text-white hover:bg-neutral-700">
        Back to the leaderboard
      </Link>
    </div>
  );
}
