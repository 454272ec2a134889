-- Run once by the postgres image on an empty data directory (/docker-entrypoint-initdb.d).
-- The SubQuery node needs btree_gist for historical mode (GiST indexes over _block_range)
-- and does not create it itself (docs/running.md, the compose services). This project runs with --historical=false,
-- but a node started once without the flag would fail without it; it costs nothing.
CREATE EXTENSION IF NOT EXISTS btree_gist;
