import type { App } from '../app.ts';

export async function usersRoutes(_app: App) {}
