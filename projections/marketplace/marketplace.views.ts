/** The read models a shipper's or carrier's next screen reads after a marketplace command. */
export const MARKETPLACE_VIEWS = ['marketplace'] as const;
