// A moment in UTC as the export formats write it; its own module so that every format's
// schema can use it without importing another format's module.
import { z } from 'zod';

/** A moment in UTC, e.g. `2026-05-01T09:30:00.000Z` (what `Date#toISOString` writes). */
export const IsoTime = z.iso.datetime({ error: 'must be an ISO 8601 UTC time like 2026-05-01T09:30:00.000Z' });
