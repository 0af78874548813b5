-- PostgreSQL's planner statistics leave out Generation's wide columns no query filters by from
-- here; SQLite's loads gather no statistics: nothing changes here (the two stores keep the same
-- migration names).
SELECT 1;
