import { z } from 'zod';

function isRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/**
 * Which shop requests a fault hits. Paths match either the full path
 * (`/shops/demo.example/products.json`) or the shop-relative one (`/products.json`).
 */
const matchSchema = z.strictObject({
  domain: z.string().optional(),
  method: z.string().optional(),
  pathPrefix: z.string().optional(),
  pathRegex: z
    .union([z.instanceof(RegExp), z.string().refine(isRegex, 'is not a valid regular expression')])
    .optional(),
});
const base = {
  match: matchSchema.optional(),
  /** How many matching requests the fault hits; 1 when absent. */
  times: z.int().min(1).optional(),
};
const faultSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...base,
    kind: z.literal('status'),
    // Statuses that cannot carry a body (204, 205, 304) are no use as faults.
    status: z
      .int()
      .min(200)
      .max(599)
      .refine((s) => ![204, 205, 304].includes(s), 'must be a status that carries a body'),
    /** JSON, or a string sent as text; Shopify's `{"errors": ...}` for the status when absent. */
    body: z.unknown().optional(),
    retryAfterSeconds: z.number().min(0).optional(),
  }),
  z.strictObject({ ...base, kind: z.literal('latency'), delayMs: z.int().min(0).max(600_000) }),
  /** Destroys the socket without an answer. */
  z.strictObject({ ...base, kind: z.literal('drop') }),
]);

export type Fault = z.input<typeof faultSchema>;
export type FaultMatch = z.input<typeof matchSchema>;

/** One fault or a list, from code or from `POST /_sim/faults`; throws on anything malformed. */
export function parseFaults(input: unknown): Fault[] {
  const parsed = z.array(faultSchema).safeParse(Array.isArray(input) ? input : [input]);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => {
      const where = (Array.isArray(input) ? i.path : i.path.slice(1)).join('.');
      return `${where || 'fault'}: ${i.message}`;
    });
    throw new Error(`Invalid fault: ${issues.join('; ')}`);
  }
  return parsed.data;
}

interface ArmedFault {
  fault: Fault;
  regex?: RegExp;
  remaining: number;
}

export interface FaultTarget {
  method: string;
  domain: string;
  fullPath: string;
  shopPath: string;
}

function matches(armed: ArmedFault, target: FaultTarget): boolean {
  const match = armed.fault.match ?? {};
  if (match.domain && match.domain !== target.domain) return false;
  if (match.method && match.method.toUpperCase() !== target.method) return false;
  const paths = [target.fullPath, target.shopPath];
  if (match.pathPrefix && !paths.some((p) => p.startsWith(match.pathPrefix!))) return false;
  if (armed.regex && !paths.some((p) => armed.regex!.test(p))) return false;
  return true;
}

/** Faults wait in arrival order; each matching request uses up one hit of the first that fits. */
export class FaultQueue {
  private armed: ArmedFault[] = [];

  add(fault: Fault): void {
    const { pathRegex } = fault.match ?? {};
    this.armed.push({
      fault,
      regex: pathRegex === undefined ? undefined : new RegExp(pathRegex),
      remaining: fault.times ?? 1,
    });
  }

  take(target: FaultTarget): Fault | undefined {
    const armed = this.armed.find((a) => matches(a, target));
    if (!armed) return undefined;
    armed.remaining -= 1;
    if (armed.remaining === 0) this.armed.splice(this.armed.indexOf(armed), 1);
    return armed.fault;
  }

  clear(): void {
    this.armed = [];
  }
}
