-- Vendor addresses taken from uploaded plugin.xml files now follow the link rule of the management API
-- (core links.ts): ones stored before with another scheme (javascript:, data:, vbscript:...) are dropped, as
-- an upload now drops them, so neither the API nor the IDE feeds serve them.
UPDATE vendors
SET url = NULL
WHERE url IS NOT NULL
  AND url ~* '^[a-z][a-z0-9+.-]*:'
  AND url !~* '^(https?|ftp)://'
  AND url !~* '^mailto:';
