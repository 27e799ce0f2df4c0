/** How long a revoked API key can be restored: long enough to undo a mistaken click, no longer. */
export const KEY_RESTORE_MINUTES = 5
