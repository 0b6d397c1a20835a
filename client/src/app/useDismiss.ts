import { type RefObject, useEffect } from 'react';

/** The header's button that opens a navigation panel: focus returns there when the panel closes. */
export const NAV_TOGGLE_SELECTOR = '[data-nav-toggle]';

/**
 * Closes an open panel (a navigation overlay, a flyout) on Escape, returning the focus to `returnTo`
 * (or the header's menu button), and on a press outside it and outside the button that opens it.
 */
export function useDismiss(
  ref: RefObject<HTMLElement | null>,
  open: boolean,
  close: () => void,
  returnTo?: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (!target || ref.current?.contains(target)) return;
      if (returnTo?.current?.contains(target)) return;
      if (target instanceof Element && target.closest(NAV_TOGGLE_SELECTOR)) return;
      close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const focusWasInside = ref.current?.contains(document.activeElement) ?? false;
      close();
      if (focusWasInside) {
        const back = returnTo?.current ?? document.querySelector<HTMLElement>(NAV_TOGGLE_SELECTOR);
        back?.focus();
      }
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', onKey);
    };
  }, [ref, open, close, returnTo]);
}
