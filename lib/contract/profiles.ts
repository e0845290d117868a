import { z } from 'zod';
import { isoTimestamp } from './common';
import { shippingRecord } from './shipping';
import { styleRecord } from './styles';

export const profileRecord = z
  .object({
    id: z.string(),
    dev_id: z.string(),
    created_at: isoTimestamp,
    styles: z.array(styleRecord).meta({ description: "The profile's style (at most one)" }),
    shipping: shippingRecord
      .nullable()
      .meta({ description: 'The attached shipping address, if any' }),
  })
  .meta({ id: 'Profile' });

export type ProfileRecord = z.infer<typeof profileRecord>;

/**
 * A profile takes no fields: the request has no body, or an empty JSON object. Anything else (a
 * field, invalid JSON, another content type) is a malformed request and creates nothing.
 */
export const createProfileRequest = z.strictObject({}).meta({
  id: 'CreateProfileRequest',
  description: 'No fields: send no body, or an empty JSON object `{}`',
});

export const createProfileResponse = z
  .object({
    success: z.literal(true),
    profile: profileRecord,
    id: z.string(),
    code: z.literal('PROFILE_CREATED'),
  })
  .meta({ id: 'CreateProfileResponse' });
export const retrieveProfileResponse = z
  .object({
    success: z.literal(true),
    profile: profileRecord,
    code: z.literal('PROFILE_RETRIEVED'),
  })
  .meta({ id: 'RetrieveProfileResponse' });
