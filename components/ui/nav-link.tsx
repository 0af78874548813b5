"use client";

import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";

/** A top-navigation link that marks itself current (aria-current) for the active section. */
export function NavLink({ href, children }: { href: string; children: React.ReactNode }) {
  const pathname = usePathname() ?? "/";
  const active = href === "/" ? pathname === "/" || pathname.startsWith("/runs") : pathname.startsWith(href);
  return (
    <Link
      href={href}
      aria-current={active ? "page" : undefined}
      className={
        "rounded-md px-2.5 py-1.5 text-sm font-medium whitespace-nowrap " +
        (active ? "bg-neutral-900 text-white" : "text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900")
      }
    >
      {children}
    </Link>
  );
}
