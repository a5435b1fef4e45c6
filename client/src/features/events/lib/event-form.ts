/*
 * Validation of the plan and edit forms (docs/product.md). Messages name the field; the server repeats
 * these checks, and its own message is shown when it refuses something the client let through.
 */
import { EVENT_DESCRIPTION_MAX, EVENT_LOCATION_MAX, EVENT_TITLE_MAX, MAX_IMAGE_BYTES } from '@tukio/shared/limits';
import {
  REFUND_PERCENT_MAX,
  REFUND_PERCENT_MIN,
  REFUND_UNTIL_HOURS_MAX,
  type RefundPolicy,
  type RefundPolicyKind,
} from '@tukio/shared/refund-policy';
import { todayInKenya } from '../../../lib/event-clock';
import { t } from '../../../lib/i18n';

export interface EventFormValues {
  title: string;
  description: string;
  date: string;
  time: string;
  location: string;
  capacity: string;
}

/** The refund policy fields of the plan and edit forms (@tukio/shared/refund-policy). */
export interface RefundPolicyValues {
  refundKind: RefundPolicyKind;
  refundPercent: string;
  refundUntilHours: string;
}

export const noRefundValues: RefundPolicyValues = { refundKind: 'none', refundPercent: '', refundUntilHours: '0' };

/** The form's values for an event's stored policy (no refunds for events made before policies). */
export function refundPolicyValues(policy: RefundPolicy | null | undefined): RefundPolicyValues {
  if (!policy) return noRefundValues;
  return { refundKind: policy.kind, refundPercent: policy.percent === null ? '' : String(policy.percent), refundUntilHours: String(policy.untilHours) };
}

export function validateRefundPolicy(values: RefundPolicyValues): FormErrors<RefundPolicyValues> {
  const errors: FormErrors<RefundPolicyValues> = {};
  if (values.refundKind === 'none') return errors;
  if (values.refundKind === 'partial') {
    const percent = Number(values.refundPercent);
    if (values.refundPercent.trim() === '' || !Number.isInteger(percent) || percent < REFUND_PERCENT_MIN || percent > REFUND_PERCENT_MAX) {
      errors.refundPercent = t('events.refundPercentInvalid', { min: REFUND_PERCENT_MIN, max: REFUND_PERCENT_MAX });
    }
  }
  const hours = Number(values.refundUntilHours);
  if (values.refundUntilHours.trim() === '' || !Number.isInteger(hours) || hours < 0 || hours > REFUND_UNTIL_HOURS_MAX) {
    errors.refundUntilHours = t('events.refundHoursInvalid', { max: REFUND_UNTIL_HOURS_MAX });
  }
  return errors;
}

/** The `refundPolicy` the create and update calls send. */
export function refundPolicyInput(values: RefundPolicyValues): RefundPolicy {
  if (values.refundKind === 'none') return { kind: 'none', percent: null, untilHours: 0 };
  return {
    kind: values.refundKind,
    percent: values.refundKind === 'partial' ? Number(values.refundPercent) : null,
    untilHours: Number(values.refundUntilHours),
  };
}

/** A paid event's prices are its ticket types' (./ticket-type-rows.ts). */
export interface PlanFormValues extends EventFormValues, RefundPolicyValues {
  isPaid: boolean;
}

export type FormErrors<T> = Partial<Record<keyof T | 'image', string>>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;

export function validateEventFields(values: EventFormValues, options: { allowPastDate?: boolean } = {}): FormErrors<EventFormValues> {
  const errors: FormErrors<EventFormValues> = {};
  if (!values.title.trim()) errors.title = t('events.titleRequired');
  else if (values.title.trim().length > EVENT_TITLE_MAX) errors.title = t('events.titleTooLong', { max: EVENT_TITLE_MAX });
  if (!values.description.trim()) errors.description = t('events.descriptionRequired');
  else if (values.description.trim().length > EVENT_DESCRIPTION_MAX) errors.description = t('events.descriptionTooLong', { max: EVENT_DESCRIPTION_MAX });
  if (!values.date) errors.date = t('events.dateRequired');
  else if (!DATE.test(values.date)) errors.date = t('events.dateFormat');
  else if (!options.allowPastDate && values.date < todayInKenya()) errors.date = t('events.datePast');
  if (!values.time) errors.time = t('events.timeRequired');
  else if (!TIME.test(values.time)) errors.time = t('events.timeFormat');
  if (!values.location.trim()) errors.location = t('events.locationRequired');
  else if (values.location.trim().length > EVENT_LOCATION_MAX) errors.location = t('events.locationTooLong', { max: EVENT_LOCATION_MAX });
  if (values.capacity.trim() !== '') {
    const capacity = Number(values.capacity);
    if (!Number.isInteger(capacity) || capacity < 1) errors.capacity = t('events.capacityInvalid');
  }
  return errors;
}

export function validatePlanForm(values: PlanFormValues, image: File | null): FormErrors<PlanFormValues> {
  const errors: FormErrors<PlanFormValues> = { ...validateEventFields(values), ...validateRefundPolicy(values) };
  const imageError = validateImage(image);
  if (imageError) errors.image = imageError;
  return errors;
}

export function validateImage(file: File | null): string | null {
  if (!file) return null;
  if (!file.type.startsWith('image/')) return t('events.imageType');
  if (file.size > MAX_IMAGE_BYTES) return t('events.imageSize');
  return null;
}

/** Optional whole number or null. */
export function parseCapacity(value: string): number | null {
  return value.trim() === '' ? null : Number(value);
}
