import { describe, expect, it } from 'vitest';
import { visibleActions } from '../components/table/rowActions.ts';
import { activeFilters, tableQueryString } from './table.ts';

const decode = (query: string) => Object.fromEntries(new URLSearchParams(query));

describe('the table protocol', () => {
  it("sends the screen's 0-based page 1-based, with the page size", () => {
    expect(decode(tableQueryString({ page: 0, pageSize: 10 }))).toEqual({
      page: '1',
      pageSize: '10',
    });
    expect(decode(tableQueryString({ page: 3, pageSize: 25 }))).toEqual({
      page: '4',
      pageSize: '25',
    });
  });

  it('sends the search trimmed, the order and the columns as JSON, and leaves out what is empty', () => {
    const query = decode(
      tableQueryString({
        page: 1,
        pageSize: 5,
        search: '  chicago ',
        order: { column: 'pickupTime', direction: 'DESC' },
        columns: ['guid', 'status'],
      }),
    );
    expect(query).toEqual({
      page: '2',
      pageSize: '5',
      search: 'chicago',
      order: '{"column":"pickupTime","direction":"DESC"}',
      columns: '["guid","status"]',
    });
    expect(
      decode(tableQueryString({ page: 0, pageSize: 5, search: '   ', order: null, columns: [] })),
    ).toEqual({ page: '1', pageSize: '5' });
  });

  it('drops filters whose value is empty or 0, and sends every value as a list', () => {
    expect(
      activeFilters({
        status: 0,
        role: '',
        equipment: [],
        loadType: [0, ''],
        organization: null,
        origin: { latitude: 41.9, longitude: -87.7, radius: 50 },
        statuses: [4, 0, 10],
        type: 2,
      }),
    ).toEqual([
      { name: 'origin', value: [{ latitude: 41.9, longitude: -87.7, radius: 50 }] },
      { name: 'statuses', value: [4, 10] },
      { name: 'type', value: [2] },
    ]);
    expect(decode(tableQueryString({ page: 0, pageSize: 10, filters: { status: 0 } }))).toEqual({
      page: '1',
      pageSize: '10',
    });
    expect(
      decode(tableQueryString({ page: 0, pageSize: 10, filters: { status: 2 } })).filters,
    ).toBe('[{"name":"status","value":[2]}]');
  });
});

describe('row actions', () => {
  const noop = () => undefined;
  const actions = [1, 2, 3, 6].map((id) => ({
    id,
    icon: 'pi pi-eye',
    label: `action ${id}`,
    onClick: noop,
  }));

  it('shows the actions the server lists for the row', () => {
    expect(visibleActions(actions, { id: 1, actions: [1, 6] }).map((action) => action.id)).toEqual([
      1, 6,
    ]);
    expect(visibleActions(actions, { id: 1 }).map((action) => action.id)).toEqual([1, 2, 3, 6]);
  });

  it('hides the first two actions of a Canceled row', () => {
    expect(
      visibleActions(actions, { id: 1, statusName: 'Canceled' }).map((action) => action.id),
    ).toEqual([3, 6]);
  });
});
