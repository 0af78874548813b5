"use client";
// Re-renders the page from the store every few seconds while a job is queued (a running job's
// progress bar does the same itself).
import { useRouter } from "next/navigation";
import { useEffect } from "react";

export function JobRefresh({ intervalMs = 2000 }: { intervalMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const t = setInterval(() => router.refresh(), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs, router]);
  return null;
}
