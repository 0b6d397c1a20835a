/** GET loads/batchImport/template: the header and an example row. */
import { DateTime } from 'luxon';
import type { TimeZoneId } from '../../../domain/catalog.ts';
import { LOADS_CSV_COLUMNS, type Row } from './loadsCsv.columns.ts';

const cell = (value: string): string =>
  /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
const toCsvLine = (values: readonly string[]): string => values.map(cell).join(',');

/** The header and one example row that is valid at `nowIso`: a load from Chicago to Indianapolis a few days ahead. */
export const loadsCsvTemplate = (nowIso: string): string => {
  const now = DateTime.fromISO(nowIso, { setZone: true });
  const local = (zoneId: TimeZoneId, days: number, hour: number) =>
    now
      .setZone(zoneId)
      .plus({ days })
      .set({ hour, minute: 0, second: 0, millisecond: 0 })
      .toFormat('MM/dd/yyyy hh:mm a', { locale: 'en-US' });
  const example: Row = {
    pickupStart: local('America/Chicago', 3, 8),
    pickupEnd: local('America/Chicago', 3, 10),
    pickupTimezone: 'America/Chicago',
    pickupFacility: 'Acme Distribution Center',
    pickupAddress: 'Chicago, IL',
    pickupContactName: 'Ann Lee',
    pickupContactPhone: '(312) 555-0100',
    pickupNumber: 'PU-1001',
    dropoffStart: local('America/New_York', 4, 9),
    dropoffEnd: local('America/New_York', 4, 13),
    dropoffTimezone: 'America/New_York',
    dropoffFacility: 'Beta Foods Warehouse',
    dropoffAddress: 'Indianapolis, IN',
    dropoffContactName: 'Sam Ortiz',
    dropoffContactPhone: '317-555-0199',
    dropoffNumber: 'DO-2002',
    expiration: local('America/Chicago', 2, 17),
    expirationTimezone: 'America/Chicago',
    loadType: 'FTL',
    equipment: '53 ft Reefer',
    accessories: 'Liftgate;Driver Assist',
    weight: '42000',
    commodity: 'Frozen food',
    refNumber: 'PO-10045',
    description: 'Call 30 minutes before arrival, dock 4',
  };
  return `${toCsvLine(LOADS_CSV_COLUMNS)}\r\n${toCsvLine(LOADS_CSV_COLUMNS.map((column) => example[column]))}\r\n`;
};
