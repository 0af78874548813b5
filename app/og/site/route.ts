import { genericImage } from "@/lib/preview/respond";

// The preview image of pages that show no single run (leaderboard, glossary, sign-in …) and of
// everything a visitor may not read: the same card, with nothing of any run.
export const dynamic = "force-dynamic";

export async function GET() {
  return genericImage();
}
