-- The journey loop's claim and its hearing rule read open steps through the partial due index
-- (status pending or waiting). Every step is updated twice (its lease, then finished) and a finished
-- step's index entry stays until the table is vacuumed: under the stock thresholds (20% of the
-- table dead) the index holds tens of thousands of dead entries at 10,000 customers (26,036 read by
-- a bitmap scan for 200 open steps), and the scans grow with the ledger. Vacuumed and analysed at
-- 2% instead, and pages kept 20% free so a lease's update stays on its page (a HOT update writes no
-- index entry; the lease columns are in no index).
ALTER TABLE "journey_steps" SET (
  fillfactor = 80,
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_threshold = 1000,
  autovacuum_analyze_scale_factor = 0.02,
  autovacuum_analyze_threshold = 1000
);
