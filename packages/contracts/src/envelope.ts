// The response envelope of api.md: every answer is {status, message, result}.
import { z } from 'zod';

export const ZFieldErrors = z.record(z.string(), z.array(z.string()));
export type TFieldErrors = z.infer<typeof ZFieldErrors>;

export function ZEnvelope<T extends z.ZodType>(result: T) {
  return z.object({ status: z.number().int(), message: z.string(), result });
}

export function ZPage<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.number().int().nullable(),
    previous: z.number().int().nullable(),
    results: z.array(item),
  });
}

export const ZErrorEnvelope = z.object({
  status: z.number().int(),
  message: z.string(),
  result: z.unknown(),
  request_id: z.string().optional(),
});
export type TErrorEnvelope = z.infer<typeof ZErrorEnvelope>;

export const ZPaymentRequiredResult = z.object({
  dialog: z.object({ title: z.string(), description: z.string() }),
});

export type TEnvelope<T> = { status: number; message: string; result: T };
