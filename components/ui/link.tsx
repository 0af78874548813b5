"use client";

import NextLink from "next/link";
import { useState, type ComponentProps } from "react";

type LinkProps = ComponentProps<typeof NextLink>;

/**
 * The app's link: Next's, prefetching its page when the pointer, the focus or a touch comes to
 * it, as Next's guide to hover prefetching does, not whenever it scrolls into view. Every view
 * is dynamic, so a prefetch renders the target's layout and loading state on the server and
 * gives back only an instant skeleton; prefetched on sight, the links of one page view were 14
 * to 74 requests to the server (docs/decisions.md, "Prefetch on intent"). Links repeated per
 * row of a table pass `prefetch={false}`: they never prefetch.
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
