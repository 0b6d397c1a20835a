/** No organization: matches no row (a caller without one sees nothing). */
export const NO_ORGANIZATION = '00000000-0000-0000-0000-000000000000';
