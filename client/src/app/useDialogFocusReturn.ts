import { useEffect } from 'react';

/**
 * When a dialog closes (Escape, its close button, an action), the keyboard's focus goes back to the
 * control that opened it, as the WAI-ARIA dialog pattern asks: PrimeReact's Dialog leaves it on the
 * page's body, so a keyboard user would start again from the top. The opener is the element the
 * focus came from when it first entered a dialog; it is focused again only if the focus has fallen
 * to the body (a dialog that moves it somewhere on purpose keeps its choice).
 */
export function useDialogFocusReturn(): void {
  useEffect(() => {
    const inDialog = (element: Element | null) => !!element?.closest('.p-dialog, [role="dialog"]');
    let opener: HTMLElement | null = null;
    const onFocusIn = (event: FocusEvent) => {
      const from = event.relatedTarget as HTMLElement | null;
      if (inDialog(event.target as Element) && from && !inDialog(from)) opener = from;
    };
    const restore = () => {
      if (!opener || document.querySelector('.p-dialog')) return;
      const active = document.activeElement;
      if ((!active || active === document.body) && opener.isConnected) opener.focus();
      opener = null;
    };
    // A dialog's mask is a child of the body: its removal is when the dialog has closed.
    const observer = new MutationObserver(restore);
    observer.observe(document.body, { childList: true });
    document.addEventListener('focusin', onFocusIn);
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', onFocusIn);
    };
  }, []);
}
