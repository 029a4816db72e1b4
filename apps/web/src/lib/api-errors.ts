// Classifies API failures for the error catalogue (spec section 8). Callers choose how to show them:
// on a form (applyApiErrorToForm), as an opt-in toast, or only in the console (reportApiError).
import { ZErrorEnvelope, ZFieldErrors, type TFieldErrors } from '@titan/contracts';
import { isAxiosError } from 'axios';
import type { FieldPath, FieldValues, UseFormSetError, UseFormSetFocus } from 'react-hook-form';
import { toast } from 'sonner';

import { API_ERROR_STRINGS } from './strings';

/** Why a request ended without the caller having anything left to show. */
export type THandledReason = 'payment_required' | 'logged_out' | 'refresh_failed' | 'mfa_enrolment_required';

/** A failure already dealt with (blocker modal shown, logged out, refresh failed silently). */
export class HandledApiError extends Error {
  constructor(
    readonly reason: THandledReason,
    options?: { cause?: unknown },
  ) {
    super(`API request ended: ${reason}`, options);
    this.name = 'HandledApiError';
  }
}

export type TApiFailure =
  | { kind: 'handled'; reason: THandledReason }
  | { kind: 'timeout'; message: string }
  | { kind: 'network'; message: string }
  | {
      kind: 'response';
      status: number;
      /** The server's own message; '' when it gave none (each caller then picks its fallback). */
      message: string;
      /** The envelope's result when it is a field map (400, and e.g. the 403 of an unverified login). */
      fieldErrors: TFieldErrors | null;
    }
  | { kind: 'unexpected'; message: string };

export const NON_FIELD_ERRORS = 'non_field_errors';
/** Where form-level messages live in react-hook-form's errors. */
export const FORM_ERROR_KEY = 'root.server';

export function describeApiFailure(error: unknown): TApiFailure {
  if (error instanceof HandledApiError) return { kind: 'handled', reason: error.reason };
  if (!isAxiosError(error)) {
    return { kind: 'unexpected', message: error instanceof Error ? error.message : String(error) };
  }
  if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT') {
    return { kind: 'timeout', message: API_ERROR_STRINGS.timeout };
  }
  const response = error.response;
  if (!response) return { kind: 'network', message: API_ERROR_STRINGS.network };
  const envelope = ZErrorEnvelope.safeParse(response.data);
  const fields = envelope.success ? ZFieldErrors.safeParse(envelope.data.result) : null;
  return {
    kind: 'response',
    status: response.status,
    message: envelope.success ? envelope.data.message.trim() : '',
    fieldErrors: fields?.success ? fields.data : null,
  };
}

export function isHandledApiError(error: unknown): boolean {
  return error instanceof HandledApiError;
}

/** The HTTP status of a failed request, if it got an answer. */
export function apiErrorStatus(error: unknown): number | null {
  const failure = describeApiFailure(error);
  return failure.kind === 'response' ? failure.status : null;
}

/** A message for a person: the server's, the timeout text, or the caller's fallback. */
export function apiErrorMessage(
  error: unknown,
  fallback: string = API_ERROR_STRINGS.somethingWentWrong,
): string {
  const failure = describeApiFailure(error);
  switch (failure.kind) {
    case 'handled':
      return '';
    case 'timeout':
    case 'network':
      return failure.message;
    case 'response': {
      const nonField = failure.fieldErrors?.[NON_FIELD_ERRORS]?.[0];
      if (nonField) return nonField;
      return failure.status >= 500 ? fallback : failure.message || fallback;
    }
    case 'unexpected':
      return fallback;
    default: {
      const unreachable: never = failure;
      return String(unreachable);
    }
  }
}

/**
 * For calls without a form: a toast when the caller opts in (true = server message or the
 * generic fallback; a string = that fallback), otherwise the console only (spec: "API error
 * without handler → message logged to the console"). Handled failures stay silent.
 */
export function reportApiError(error: unknown, options: { toast?: boolean | string } = {}): void {
  if (isHandledApiError(error)) return;
  const fallback = typeof options.toast === 'string' ? options.toast : API_ERROR_STRINGS.somethingWentWrong;
  const message = apiErrorMessage(error, fallback);
  if (options.toast) toast.error(message);
  else console.error(message, error);
}

type TFormErrorTarget<T extends FieldValues> = {
  setError: UseFormSetError<T>;
  setFocus: UseFormSetFocus<T>;
};

/**
 * Puts a failed submit's errors on a react-hook-form form (spec sections 5 and 8): each field error
 * on the matching field (first message of a list) with the first such field focused; fields the form
 * lacks are ignored; non_field_errors, timeouts and other answers go to the form-level alert; a 400
 * whose errors cannot be mapped toasts "Something went wrong". Answers whether anything was shown.
 */
export function applyApiErrorToForm<T extends FieldValues>(
  form: TFormErrorTarget<T>,
  fields: readonly FieldPath<T>[],
  error: unknown,
): boolean {
  const failure = describeApiFailure(error);
  const showOnForm = (message: string): true => {
    form.setError(FORM_ERROR_KEY, {
      type: 'server',
      message: message || API_ERROR_STRINGS.somethingWentWrong,
    });
    return true;
  };
  switch (failure.kind) {
    case 'handled':
      return false;
    case 'timeout':
    case 'network':
      return showOnForm(failure.message);
    case 'unexpected':
      console.error(failure.message, error);
      toast.error(API_ERROR_STRINGS.somethingWentWrong);
      return true;
    case 'response':
      break;
    default: {
      const unreachable: never = failure;
      return Boolean(unreachable);
    }
  }
  if (!failure.fieldErrors) {
    if (failure.status === 400) {
      toast.error(API_ERROR_STRINGS.somethingWentWrong);
      return true;
    }
    return showOnForm(failure.status >= 500 ? API_ERROR_STRINGS.somethingWentWrong : failure.message);
  }
  try {
    let shown = false;
    let first: FieldPath<T> | null = null;
    for (const field of fields) {
      const message = failure.fieldErrors[field]?.[0];
      if (!message) continue;
      form.setError(field, { type: 'server', message });
      first ??= field;
      shown = true;
    }
    const nonField = failure.fieldErrors[NON_FIELD_ERRORS]?.[0];
    if (nonField) shown = showOnForm(nonField);
    if (first) form.setFocus(first);
    // A non-400 answer (403, 409, 429…) always says something, even when its fields are foreign.
    if (!shown && failure.status !== 400) shown = showOnForm(failure.message);
    return shown;
  } catch (mappingFailure) {
    console.error('Could not put the server errors on the form', mappingFailure);
    toast.error(API_ERROR_STRINGS.somethingWentWrong);
    return true;
  }
}
