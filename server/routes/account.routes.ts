import type { App } from '../app.ts';

export async function accountRoutes(_app: App) {}
