import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

/** Events of the `company-<id>` stream. */
export const companyEvents = defineEvents({ CompanyRegistered: z.object({ companyId: z.number().int(), name: z.string() }) });
export type CompanyEvent = EventOf<typeof companyEvents>;
export const companyStream = (companyId: number): string => `company-${companyId}`;
