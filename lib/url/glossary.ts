// The glossary page (/glossary): one anchor per term, so a column header or a number can
// link straight to its explanation.

export const GLOSSARY_TERMS = [
  "horizon",
  "length-fit",
  "horizon-vs-l50",
  "step-reliability",
  "wilson",
  "bootstrap",
  "mcnemar",
  "failure-modes",
  "step-statuses",
  "first-answer",
  "self-conditioning",
] as const;
export type GlossaryTerm = (typeof GLOSSARY_TERMS)[number];

export function glossaryHref(term?: GlossaryTerm): string {
  return "/glossary" + (term ? "#" + term : "");
}
