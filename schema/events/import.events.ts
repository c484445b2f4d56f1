import { z } from 'zod';
import { defineEvent } from './envelope.js';

/**
 * Excel imports. A job is its own aggregate (`import_job`, id = job id): requested by the upload,
 * progressed while the import worker reads it, finished once (in the same transaction as the rows
 * of an apply job). Imported computers are announced per chunk under the `device` aggregate type,
 * so the live device lists refresh without one event per row.
 */
const jobId = z.string().uuid();
const counts = { processedRows: z.number().int().min(0), totalRows: z.number().int().min(0).nullable() };

export const importRequested = defineEvent(
  'import.requested',
  'import_job',
  1,
  z.object({
    jobId,
    kind: z.literal('computers'),
    mode: z.enum(['preview', 'apply']),
    format: z.enum(['xlsx', 'xls']),
  }),
);

export const importProgressed = defineEvent('import.progressed', 'import_job', 1, z.object({ jobId, ...counts }));

export const importFinished = defineEvent(
  'import.finished',
  'import_job',
  1,
  z.object({
    jobId,
    ...counts,
    status: z.enum(['succeeded', 'failed']),
    created: z.number().int().min(0),
    updated: z.number().int().min(0),
    unchanged: z.number().int().min(0),
    rejected: z.number().int().min(0),
  }),
);

/** One chunk of an apply job's writes: the computers created and updated (aggregate id `computer:import:<jobId>`). */
export const computersImported = defineEvent(
  'device.computers.imported',
  'device',
  1,
  z.object({ jobId, created: z.array(z.number().int()), updated: z.array(z.number().int()) }),
);

export const importEventContracts = [importRequested, importProgressed, importFinished, computersImported] as const;
