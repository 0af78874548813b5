-- The search index holds each output's distinct trigrams and its run's word, not the text
-- (lib/store/search-terms.ts): FTS5's trigram tokenizer gave it one token per character, most
-- of them repeats a detail=none index does not record, and indexing was the largest part of a
-- load (docs/performance.md, "Load"). The searchable runs' outputs are indexed again here,
-- through the functions every connection of ours registers.
DROP TABLE "GenerationFts";
CREATE VIRTUAL TABLE "GenerationFts" USING fts5("terms", content='', contentless_delete=1, tokenize='ascii', detail='none');
-- Loads write the index in large transactions: 8 MB of pending words before a segment is
-- written (FTS5's default is 1 MB) and merges of 8 segments (default 4) halve its cost at
-- 100,000 outputs for the same bytes (docs/performance.md, "Load"). Stored in its _config table.
INSERT INTO "GenerationFts"("GenerationFts", rank) VALUES ('hashsize', 8388608);
INSERT INTO "GenerationFts"("GenerationFts", rank) VALUES ('automerge', 8);
INSERT INTO "GenerationFts"(rowid, "terms")
SELECT g."id", stepwise_search_terms(g."runId", stepwise_output(g."output", g."outputDeflated"))
FROM "Generation" g JOIN "Run" r ON r."id" = g."runId"
WHERE r."searchIndexed";
