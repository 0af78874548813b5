-- Nothing on SQLite: its foreign keys are checked in process, at no cost a load could measure
-- (alternating loads with `foreign_keys` off were no faster); PostgreSQL's run keys go in its
-- own 0022 (docs/decisions.md, "A run's rows hold no foreign key to it on PostgreSQL").
SELECT 1;
