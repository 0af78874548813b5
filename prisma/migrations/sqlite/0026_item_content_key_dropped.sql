-- PostgreSQL's Item loses its foreign key to its content record from here; SQLite checks its
-- keys in process, at no cost a load could measure, and keeps them: nothing changes here (the two
-- stores keep the same migration names).
SELECT 1;
