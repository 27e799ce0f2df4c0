/** How long a revoked API key can be restored: long enough to undo a mistaken click, no longer. */
export const KEY_RESTORE_MINUTES = 5

/** How long a deleted webhook (with its delivery log) can be restored before it is gone. */
export const WEBHOOK_RESTORE_MINUTES = 5
