import { dateTimeSchema, OBJECT_ID_PATTERN } from '@tukio/shared/internal-api';
import { z } from 'zod';

/** Building blocks of the response schemas in each module's `<module>.responses.ts` (documentation only). */

/** A row id as the API sends it: 24 hex characters. */
export const idString = z.string().regex(OBJECT_ID_PATTERN);

/** An instant as ISO 8601 text. */
export const dateTimeString = dateTimeSchema;
