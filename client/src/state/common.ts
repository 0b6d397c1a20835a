import { atom } from 'jotai';
import { messageOf } from '../api/http.ts';
import { appStore } from './session.ts';

/** Request lifecycle of the specification's section 4: loading, the last error, the last message. */
export interface CommonState {
  loading: boolean;
  error: string | null;
  message: string | null;
}

export const commonAtom = atom<CommonState>({ loading: false, error: null, message: null });

/** The Account Settings dialog is open. */
export const accountOpenAtom = atom(false);

export type Severity = 'success' | 'info' | 'warn' | 'error';

export interface Snack {
  id: number;
  severity: Severity;
  text: string;
}

/** Snackbars waiting to be shown by the global notifier. */
export const snackQueueAtom = atom<Snack[]>([]);

let nextSnackId = 1;

/** Shows a snackbar (success, warning, error or info); it closes after 6 s. */
export function notify(severity: Severity, text: string): void {
  appStore.set(snackQueueAtom, (queue) => [...queue, { id: nextSnackId++, severity, text }]);
}

/** Start sets loading and clears error and message. */
export function fetchStart(): void {
  appStore.set(commonAtom, { loading: true, error: null, message: null });
}

/** Success clears loading, and may show a message. */
export function fetchSuccess(message: string | null = null): void {
  appStore.set(commonAtom, (state) => ({ ...state, loading: false, message }));
}

/** An error is stored (and shown by the notifier). */
export function fetchError(error: string): void {
  appStore.set(commonAtom, (state) => ({ ...state, loading: false, error }));
}

export function hideMessage(): void {
  appStore.set(commonAtom, (state) => ({ ...state, message: null, error: null }));
}

/** Runs a call through the request lifecycle: loading shown, then its message or its error. */
export async function runRequest<T>(
  call: () => Promise<T>,
  successMessage?: string | ((result: T) => string | null),
): Promise<T | undefined> {
  fetchStart();
  try {
    const result = await call();
    fetchSuccess(
      typeof successMessage === 'function' ? successMessage(result) : (successMessage ?? null),
    );
    return result;
  } catch (error) {
    fetchError(messageOf(error));
    return undefined;
  }
}
