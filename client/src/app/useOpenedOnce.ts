import { useState } from 'react';

/**
 * False until `open` first turns true, then true for good: a panel whose code loads when it is
 * first opened is rendered from then on, so that it can play its closing animation.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
