/**
 * The signed-in shell (menus, top bar, notifications, the realtime connection) is a chunk of its own:
 * the landing and sign-in pages of a first visit never load it. One import, shared by the lazy
 * component and by the session check, which asks for it while the stored token is being checked.
 */
let shell: Promise<typeof import('./AppShell.tsx')> | null = null;

export const loadAppShell = () => {
  shell ??= import('./AppShell.tsx');
  return shell;
};
