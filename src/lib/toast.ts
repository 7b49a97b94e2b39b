/** Toasts raised from anywhere (API errors, successes) and shown by the one Toaster of the layout. */
export type ToastKind = 'success' | 'info' | 'warning' | 'error';

export interface ToastMessage {
  id: number;
  kind: ToastKind;
  title: string;
  description?: string;
}

/** Success is read at a glance; anything that asks for attention stays longer. */
export const TOAST_DURATION_MS: Record<ToastKind, number> = { success: 3000, info: 3000, warning: 5000, error: 5000 };

type Listener = (toasts: ToastMessage[]) => void;

let toasts: ToastMessage[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const publish = () => listeners.forEach((listener) => listener(toasts));

export function showToast(kind: ToastKind, title: string, description?: string): number {
  const id = nextId++;
  toasts = [...toasts, { id, kind, title, description }];
  publish();
  return id;
}

export function dismissToast(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  publish();
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  listener(toasts);
  return () => listeners.delete(listener);
}
