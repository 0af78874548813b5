-- PostgreSQL's search index becomes the table of postings SQLite has had since 0018; nothing
-- changes here (the two stores keep the same migration names).
SELECT 1;
