export declare const plugin: (t: unknown, options?: { context?: unknown }) => object;
