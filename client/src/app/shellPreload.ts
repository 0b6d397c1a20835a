/**
 * Lets a screen ask for the signed-in shell's code ahead of time without importing it: an import, even
 * a dynamic one, from a screen that the shell's own routes reach would close an import circle. The
 * router registers the loader (AppRoutes.tsx).
 */
let preload: (() => void) | null = null;

export const setShellPreload = (load: () => void) => {
  preload = load;
};

/** Starts loading the shell, if the router has said how; otherwise nothing. */
export const preloadShell = () => preload?.();
