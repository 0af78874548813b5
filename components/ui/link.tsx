"use client";

import NextLink from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useState, type ComponentProps } from "react";

type LinkProps = ComponentProps<typeof NextLink>;

/**
 * The app's link: Next's, prefetching its page when the pointer, the focus or a touch comes to
 * it, as Next's guide to hover prefetching does, not whenever it scrolls into view. Every view
 * is dynamic, so a prefetch renders the target's layout and loading state on the server and
 * gives back only an instant skeleton; prefetched on sight, the links of one page view were 14
 * to 74 requests to the server (docs/decisions.md, "Prefetch on intent"). Links repeated per
 * row of a table are plain anchors under `useRowLinkNavigation`; other links that should never
 * prefetch pass `prefetch={false}`.
 */
export function Link(props: LinkProps) {
  return props.prefetch === false ? <NextLink {...props} /> : <IntentLink {...props} />;
}

function IntentLink({ prefetch, onMouseEnter, onFocus, onTouchStart, ...props }: LinkProps) {
  const [intent, setIntent] = useState(false);
  return (
    <NextLink
      {...props}
      prefetch={intent ? (prefetch ?? null) : false}
      onMouseEnter={(e) => {
        setIntent(true);
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        setIntent(true);
        onFocus?.(e);
      }}
      onTouchStart={(e) => {
        setIntent(true);
        onTouchStart?.(e);
      }}
    />
  );
}

/**
 * Client-side navigation for the plain `<a href>`s inside one element: a table's row links are
 * plain anchors, and this one handler on the table body opens them as a `Link` would (no page
 * load), instead of one Next `Link` component per link, 100 on an item page (docs/performance.md,
 * "Pages and API", stop 54). A click with a modifier key or another button, or on a link with a
 * `target`, `download` or another origin, is left to the browser. Row links never prefetch.
 */
export function useRowLinkNavigation(): React.MouseEventHandler<HTMLElement> {
  const router = useRouter();
  return useCallback(
    (e) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
      if (!(a instanceof HTMLAnchorElement) || !e.currentTarget.contains(a)) return;
      if ((a.target && a.target !== "_self") || a.hasAttribute("download") || a.origin !== window.location.origin) return;
      e.preventDefault();
      router.push(a.pathname + a.search + a.hash);
    },
    [router],
  );
}
