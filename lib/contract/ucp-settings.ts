import { z } from 'zod';

/** A UCP payment handler as a store declares it (UCP's handler object; `id` names it). */
const paymentHandler = z
  .looseObject({
    id: z.string().min(1).max(100),
    name: z.string().max(200).optional(),
    version: z.string().max(20).optional(),
    config: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'UcpPaymentHandler' });

export const ucpSettingsRequest = z
  .object({
    agent_access: z.enum(['keys', 'open']).optional().meta({
      description:
        "'open': keyless agents naming their profile in UCP-Agent may use the store's UCP routes too; 'keys' (default): developers' API keys only",
    }),
    payment_handlers: z.array(paymentHandler).max(20).optional().meta({
      description:
        'The handlers the store accepts, as its UCP profile lists them (replaces the list). Only mock_payment_handler can take a payment here; others are listed and refused at completion.',
    }),
  })
  .meta({ id: 'UcpSettingsRequest' });

export const ucpSettingsResponse = z
  .object({
    code: z.literal('STORE_UCP_SETTINGS_UPDATED'),
    store_id: z.string(),
    agent_access: z.enum(['keys', 'open']),
    payment_handlers: z.array(paymentHandler),
  })
  .meta({ id: 'UcpSettingsResponse' });
