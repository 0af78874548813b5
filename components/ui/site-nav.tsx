"use client";

import { usePathname } from "next/navigation";
import { useState } from "react";
import { NavLink } from "./nav-link";

/**
 * The main navigation: a row of links from 640 px up, a "Menu" button below (a phone has no
 * room for seven links beside the name). The menu closes by itself on navigation: it is open
 * only for the path it was opened on.
 */
export function SiteNav({ links }: { links: readonly { href: string; label: string }[] }) {
  const pathname = usePathname() ?? "/";
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  return (
    <>
      <button
        type="button"
        className="order-last ml-1 rounded-md border border-neutral-300 px-2.5 py-1 text-sm font-medium text-neutral-700 sm:hidden"
        aria-expanded={open}
        aria-controls="main-nav"
        onClick={() => setOpenOn(open ? null : pathname)}
      >
        {open ? "Close" : "Menu"}
      </button>
      <nav
        id="main-nav"
        aria-label="Main"
        className={`${open ? "flex" : "hidden"} order-last w-full flex-col gap-1 pb-1 sm:order-none sm:flex sm:w-auto sm:flex-row sm:flex-wrap sm:items-center sm:pb-0`}
      >
        {links.map((n) => (
          <NavLink key={n.href} href={n.href}>
            {n.label}
          </NavLink>
        ))}
      </nav>
    </>
  );
}
