import { useEffect, useState } from 'react';
import { Toast } from 'radix-ui';
import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from 'lucide-react';
import { cn } from '@/lib/cn';
import { TOAST_DURATION_MS, dismissToast, subscribeToasts, type ToastKind, type ToastMessage } from '@/lib/toast';

const look: Record<ToastKind, { className: string; Icon: typeof Info }> = {
  success: { className: 'border-success/50 bg-card text-success', Icon: CircleCheck },
  info: { className: 'border-border bg-card text-foreground', Icon: Info },
  warning: { className: 'border-warning/50 bg-card text-warning', Icon: TriangleAlert },
  error: { className: 'border-destructive/50 bg-card text-destructive', Icon: CircleAlert },
};

/** The toasts at the top of the screen; `closeLabel` and `regionLabel` come translated from the layout. */
export function Toaster({ closeLabel, regionLabel }: { closeLabel: string; regionLabel: string }) {
  const [toasts, setToasts] = useState<ToastMessage[]>([]);
  useEffect(() => subscribeToasts(setToasts), []);
  return (
    <Toast.Provider swipeDirection="up" label={regionLabel}>
      {toasts.map((toast) => {
        const { className, Icon } = look[toast.kind];
        return (
          <Toast.Root
            key={toast.id}
            duration={TOAST_DURATION_MS[toast.kind]}
            type={toast.kind === 'error' || toast.kind === 'warning' ? 'foreground' : 'background'}
            onOpenChange={(open) => !open && dismissToast(toast.id)}
            data-kind={toast.kind}
            className={cn(
              'pointer-events-auto flex w-full items-start gap-3 rounded-lg border-2 p-4 shadow-lg',
              className,
            )}
          >
            <Icon className="mt-0.5 size-5 shrink-0" aria-hidden />
            <div className="grid min-w-0 flex-1 gap-1 wrap-anywhere">
              <Toast.Title className="font-semibold">{toast.title}</Toast.Title>
              {toast.description ? (
                <Toast.Description className="text-sm text-foreground">{toast.description}</Toast.Description>
              ) : null}
            </div>
            <Toast.Close
              aria-label={closeLabel}
              className="-m-2 inline-flex size-11 shrink-0 items-center justify-center rounded-md hover:bg-muted"
            >
              <X className="size-5" aria-hidden />
            </Toast.Close>
          </Toast.Root>
        );
      })}
      <Toast.Viewport className="fixed left-1/2 top-2 z-[100] flex w-[calc(100vw-1rem)] max-w-md -translate-x-1/2 flex-col gap-2 outline-none" />
    </Toast.Provider>
  );
}
