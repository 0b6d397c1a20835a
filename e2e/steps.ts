/**
 * Steps the journeys share: keyboard-only moves (Tab until a control has the focus, typing a
 * date-time segment by segment), the load form filled by keyboard, and small waits on the screen.
 */
import type { Locator, Page } from 'playwright-core';

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus; no clicks. */
export async function tabTo(
  page: Page,
  target: Locator,
  { max = 250, back = false } = {},
): Promise<void> {
  await target.waitFor({ state: 'attached' });
  for (let presses = 0; presses <= max; presses++) {
    if (
      await target
        .evaluate(
          (element) =>
            element === document.activeElement || element.contains(document.activeElement),
        )
        .catch(() => false)
    )
      return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab did not reach ${target} in ${max} presses`);
}

/** Tabs to a control and presses a key on it (Enter for buttons and links, Space for checkboxes). */
export async function press(
  page: Page,
  target: Locator,
  key: 'Enter' | 'Space' | ' ' = 'Enter',
  options: { back?: boolean } = {},
): Promise<void> {
  await tabTo(page, target, options);
  await page.keyboard.press(key === 'Space' ? ' ' : key);
}

/** A wall time in a zone, as the segments of Chromium's en-US datetime-local: MM DD YYYY hh mm A/P. */
export function segmentsOf(at: Date, timeZone: string): string[] {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hour12: true,
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return [
    parts.month,
    parts.day,
    parts.year,
    parts.hour,
    parts.minute,
    parts.dayPeriod.startsWith('P') ? 'P' : 'A',
  ];
}

/**
 * Types a date-time into a focused datetime-local input, by keyboard. The year segment takes up to
 * six digits, so Tab moves on from it; the others move on by themselves.
 */
export async function typeDateTime(
  page: Page,
  input: Locator,
  at: Date,
  timeZone: string,
): Promise<void> {
  await tabTo(page, input);
  const [month, day, year, hour, minute, period] = segmentsOf(at, timeZone);
  await page.keyboard.type(month);
  await page.keyboard.type(day);
  await page.keyboard.type(year);
  await page.keyboard.press('Tab');
  await page.keyboard.type(hour);
  await page.keyboard.type(minute);
  await page.keyboard.type(period);
}

/** Picks the first place the search offers for `text`, by keyboard (type, wait for the list, Enter). */
export async function pickPlace(page: Page, combobox: Locator, text: string): Promise<void> {
  await tabTo(page, combobox);
  await page.keyboard.type(text, { delay: 20 });
  const list = page.locator(`#${await combobox.getAttribute('id')}-list`);
  await list.getByRole('option').first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await list.waitFor({ state: 'detached' });
}

/** Chooses options of a PrimeReact MultiSelect by keyboard: open, filter, arrow down, Enter, Escape. */
export async function chooseInMultiSelect(
  page: Page,
  input: Locator,
  filter: string,
): Promise<void> {
  await tabTo(page, input);
  await page.keyboard.press('Enter');
  await page.locator('.p-multiselect-panel').waitFor();
  if (await page.locator('.p-multiselect-panel .p-multiselect-filter').count()) {
    // The panel moves the focus into its filter box once it has opened.
    await page.waitForFunction(() =>
      document.activeElement?.classList.contains('p-multiselect-filter'),
    );
    await page.keyboard.type(filter);
    // The list narrows to the match before the arrow moves onto it.
    await page
      .locator('.p-multiselect-panel [role="option"]')
      .first()
      .filter({ hasText: filter })
      .waitFor();
    await page.keyboard.press('ArrowDown');
  } else {
    // No filter box: the list has the focus; walk it to the option.
    const options = await page.locator('.p-multiselect-panel [role="option"]').allTextContents();
    const index = options.findIndex((option) => option.trim() === filter);
    if (index < 0) throw new Error(`no option ${filter} in ${options.join(', ')}`);
    for (let step = 0; step <= index; step++) await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await page.locator('.p-multiselect-panel').waitFor({ state: 'detached' });
  const chosen = await page
    .locator(`.p-multiselect:has(#${await input.getAttribute('id')}) .p-multiselect-token-label`)
    .allTextContents();
  if (!chosen.includes(filter))
    throw new Error(`the MultiSelect holds ${chosen.join(', ')}, not ${filter}`);
}

export interface LoadInput {
  commodity: string;
  refNumber: string;
  weight: string;
  /** Pickup, extra stop, dropoff: what to type in each place search, and the facility name. */
  stops: [
    { place: string; facility: string },
    { place: string; facility: string },
    { place: string; facility: string },
  ];
  pickupAt: Date;
  dropoffAt: Date;
  expiresAt: Date;
  timeZone: string;
  /** Step 3's optional fields, typed when given: "Preferred carriers first for N hours", the Book Now price. */
  preferredOnlyHours?: string;
  bookNowPrice?: string;
}

/**
 * Posts a load through /load's three steps with the keyboard only: the time windows, equipment,
 * an extra stop, "save location" on the pickup, the details; Tab, Enter, Space and typing, no clicks.
 */
export async function postLoadByKeyboard(page: Page, url: string, load: LoadInput): Promise<void> {
  await page.goto(`${url}/load`);
  await page.getByRole('heading', { name: 'General info' }).waitFor();
  await typeDateTime(page, page.locator('#pickupTimestampStart'), load.pickupAt, load.timeZone);
  await typeDateTime(page, page.locator('#dropOffTimestampStart'), load.dropoffAt, load.timeZone);
  await typeDateTime(page, page.locator('#expiration'), load.expiresAt, load.timeZone);
  await chooseInMultiSelect(page, page.locator('#loadEquipment'), '53 ft Dry Van');
  await press(page, page.getByRole('button', { name: 'Next' }));

  await page.getByRole('heading', { name: 'Locations' }).waitFor();
  await press(page, page.getByRole('button', { name: 'Add extra stop' }), 'Enter', { back: true });
  // The extra stop goes before the dropoff: the editors read pickup, extra stop, dropoff.
  const editors = page.locator('fieldset.stop-editor');
  await editors.nth(2).waitFor();
  for (const [index, stop] of load.stops.entries()) {
    const editor = editors.nth(index);
    await pickPlace(page, editor.getByRole('combobox', { name: /Location/ }), stop.place);
    await tabTo(page, editor.getByLabel('Facility Name'));
    await page.keyboard.type(stop.facility);
    if (index === 0)
      await press(page, editor.getByLabel('Save this location for later loads'), 'Space');
  }
  await press(page, page.getByRole('button', { name: 'Next' }));

  await page.getByRole('heading', { name: 'Load Details' }).waitFor();
  await chooseInMultiSelect(page, page.locator('#loadAccessories'), 'Liftgate');
  for (const [label, value] of [
    ['Weight (LBS)', load.weight],
    ['Shipper Reference Number', load.refNumber],
    ['Commodity', load.commodity],
    ['Preferred carriers first for N hours', load.preferredOnlyHours],
    ['Book Now price (USD)', load.bookNowPrice],
  ] as const) {
    if (value === undefined) continue;
    await tabTo(page, page.getByLabel(label));
    await page.keyboard.type(value);
  }
  await press(page, page.getByRole('button', { name: 'Post the load' }));
  await page.waitForURL(/\/loads\/shipper/, { timeout: 30_000 });
}

/** The toast saying `text`, once one shows it. */
export const toastSaying = (page: Page, text: string | RegExp): Locator =>
  page.locator('.p-toast-message').filter({ hasText: text }).first();

/** The row of a data table holding `text`. */
export const rowWith = (page: Page, text: string): Locator =>
  page.getByRole('row').filter({ hasText: text });

/** Clicks a row action (the icon buttons named by aria-label) of the row holding `text`. */
export async function rowAction(page: Page, text: string, action: string | RegExp): Promise<void> {
  const row = rowWith(page, text);
  await row.first().waitFor({ timeout: 30_000 });
  await row.first().getByRole('button', { name: action }).first().click();
}
