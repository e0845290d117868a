import { z } from 'zod';
import { idInput, isoTimestamp } from './common';
import { multiLine } from './plain-text';

export const STYLE_TEXT_MAX = 2000;

export const styleText = multiLine(z.string().trim())
  .min(1, 'must not be empty')
  .max(STYLE_TEXT_MAX, `must be at most ${STYLE_TEXT_MAX} characters`)
  .meta({
    description: 'Style preferences, colours, patterns and other fashion attributes',
    example: 'minimal linen, earth tones, no logos',
  });

export const createStyleRequest = z
  .object({ text: styleText, profile_id: idInput })
  .meta({ id: 'CreateStyleRequest' });
export const updateStyleRequest = z.object({ text: styleText }).meta({ id: 'UpdateStyleRequest' });

export const styleRecord = z
  .object({
    id: z.string(),
    text: z.string(),
    profile_id: z.string(),
    created_at: isoTimestamp.optional(),
    updated_at: isoTimestamp.optional(),
  })
  .meta({ id: 'Style' });

export type StyleRecord = z.infer<typeof styleRecord>;

export const createStyleResponse = z
  .object({
    success: z.literal(true),
    style: styleRecord,
    id: z.string(),
    code: z.literal('STYLE_CREATED'),
  })
  .meta({ id: 'CreateStyleResponse' });
export const updateStyleResponse = z
  .object({
    success: z.literal(true),
    style: styleRecord,
    id: z.string(),
    code: z.literal('STYLE_UPDATED'),
  })
  .meta({ id: 'UpdateStyleResponse' });
export const retrieveStyleResponse = z
  .object({ success: z.literal(true), style: styleRecord, code: z.literal('STYLE_RETRIEVED') })
  .meta({ id: 'RetrieveStyleResponse' });
