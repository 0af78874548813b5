-- The search index holds each output's distinct trigrams and its run's word, not the text
-- (lib/store/search-terms.ts): FTS5's trigram tokenizer gave it one token per character, most
-- of them repeats a detail=none index does not record, and indexing was the largest part of a
-- load (docs/performance.md, "Load"). The searchable runs' outputs are indexed again here,
-- through the functions every connection of ours registers.
DROP TABLE "GenerationFts";
CREATE VIRTUAL TABLE "GenerationFts" USING fts5("terms", content='', contentless_delete=1, tokenize='ascii', detail='none');
INSERT INTO "GenerationFts"(rowid, "terms")
SELECT g."id", stepwise_search_terms(g."runId", stepwise_output(g."output", g."outputDeflated"))
FROM "Generation" g JOIN "Run" r ON r."id" = g."runId"
WHERE r."searchIndexed";
