import { z } from 'zod';

/** One page of a list (docs/api-conventions.md, "Paging"): `page` is 0-based. */
export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

/** Builds a page from its rows and the total count. */
export function toPage<T>(content: T[], total: number, page: number, size: number): Page<T> {
  return { content, page, size, totalElements: total, totalPages: size > 0 ? Math.ceil(total / size) : 0 };
}

/** The zod schema of a page of `item`, named `id` in the OpenAPI document when given. */
export function pageSchema<T extends z.ZodType>(item: T, id?: string) {
  const schema = z.object({
    content: z.array(item),
    page: z.number().int(),
    size: z.number().int(),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
  });
  return id ? schema.meta({ id }) : schema;
}
