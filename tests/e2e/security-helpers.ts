import { expect, type Page } from "@playwright/test";
import { PRIVATE_USERS } from "./fixtures/private-users";

// Watches a page for any sign that hostile input ran or was parsed as markup: a dialog, a
// request to another origin or to javascript:, a CSP violation, and (on demand) injected
// elements or attributes in the DOM. Shared by the security specs.
export function watch(page: Page, origin: string) {
  const problems: string[] = [];
  page.on("dialog", async (d) => {
    problems.push(`dialog: ${d.message()}`);
    await d.dismiss().catch(() => undefined);
  });
  page.on("request", (r) => {
    const url = r.url();
    if (url.startsWith("javascript:") || (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")))
      problems.push(`request: ${url.slice(0, 120)}`);
  });
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|frame)/i.test(m.text())) problems.push(`csp: ${m.text().slice(0, 200)}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message.slice(0, 200)}`));
  return problems;
}

/** DOM checks: no event-handler attributes, no javascript:/data: URLs, no injected tags, no inline script that is not Next's. */
export async function injectedMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const dangerousTags = [
      "iframe",
      "object",
      "embed",
      "base",
      "x",
      "math",
      "mglyph",
      "noscript",
      "frame",
      "frameset",
      "applet",
      "animate",
    ];
    for (const el of Array.from(document.querySelectorAll("*"))) {
      const tag = el.tagName.toLowerCase();
      if (dangerousTags.includes(tag)) found.push(`<${tag}>`);
      if (tag === "meta" && el.getAttribute("http-equiv")) found.push(`<meta http-equiv=${el.getAttribute("http-equiv")}>`);
      if (tag === "link" && /evil/.test(el.getAttribute("href") ?? "")) found.push("<link evil>");
      if (tag === "img" && /^(x|http:\/\/127\.0\.0\.1:9)/.test(el.getAttribute("src") ?? ""))
        found.push(`<img src=${el.getAttribute("src")}>`);
      if (tag === "style" && /display:\s*none!important/.test(el.textContent ?? "")) found.push("<style> injected");
      for (const a of Array.from(el.attributes)) {
        if (/^on/i.test(a.name)) found.push(`${tag}[${a.name}]`);
        if (/^\s*(javascript|data|vbscript):/i.test(a.value) && /href|src|action|data|formaction/i.test(a.name))
          found.push(`${tag}[${a.name}=${a.value.slice(0, 40)}]`);
      }
      if (tag === "script" && !el.getAttribute("src")) {
        const text = el.textContent ?? "";
        // Next's flight data carries the payloads as JSON strings: that is data, not code.
        if (!/^\s*\(?self\.__next_[a-z]/.test(text) && /alert\(/.test(text)) found.push(`inline script: ${text.slice(0, 60)}`);
      }
    }
    return found;
  });
}

export async function expectInert(page: Page, problems: string[], where: string) {
  // Give autofocus / onload / animation handlers a moment to fire if they had been injected.
  await page.waitForTimeout(150);
  expect(await injectedMarkup(page), `injected markup on ${where}`).toEqual([]);
  expect(problems, `problems on ${where}`).toEqual([]);
}

export async function signIn(page: Page, who: keyof typeof PRIVATE_USERS, next = "/") {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(PRIVATE_USERS[who].email);
  await page.getByLabel("Password").fill(PRIVATE_USERS[who].password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}
