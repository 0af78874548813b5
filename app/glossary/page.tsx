import type { Metadata } from "next";
import { Glossary } from "@/components/ui/glossary";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Glossary" };

export default function GlossaryPage() {
  return (
    <>
      <PageHeader
        title="What the numbers mean"
        subtitle="Every metric Stepwise shows, how it is computed and how to read it (SPEC §3–§4)."
      />
      <Glossary />
    </>
  );
}
