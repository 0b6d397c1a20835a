/** Statements worth planning once: reads and writes. */
export const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** Kysely's own transaction statements on PGlite. */
export const TRANSACTION_CONTROL = /^(begin|commit|rollback)$/;
export const TRANSACTION_BEGINS = /^\s*(begin|start\s+transaction)\b/i;
/** COMMIT, ROLLBACK (not ROLLBACK TO a savepoint), END, ABORT. */
export const TRANSACTION_ENDS = /^\s*(commit|end|abort|rollback(?!\s+to\b))\b/i;
