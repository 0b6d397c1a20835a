import type { App } from '../app.ts';

export async function registrationRoutes(_app: App) {}
