/**
 * A coordinate in decimal degrees kept to seven decimals (about a centimetre): past that a number says
 * nothing more about a place, and a subnormal one (say 1e-320) would make PostgreSQL's float
 * arithmetic fail with an underflow in the distance formulas. Minus zero becomes zero.
 */
export const roundCoordinate = (degrees: number): number => Math.round(degrees * 1e7) / 1e7 || 0;
