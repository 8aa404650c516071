import type { Page } from 'playwright-core';

/** /location: the Asset Location (map) and Multiple Asset CSV wizards. */
export class LocationPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/location`);
    await this.waitForPage();
  }

  async waitForPage(): Promise<void> {
    await this.page.waitForURL('**/location');
    await this.page.getByRole('heading', { name: 'Create a portfolio' }).waitFor();
  }

  map() {
    return this.page.getByTestId('location-map');
  }

  async waitForMap(): Promise<void> {
    await this.page.locator('[data-testid="location-map"][data-loaded="true"]').waitFor({ timeout: 30_000 });
  }

  async clickMap(x: number, y: number): Promise<void> {
    await this.map().click({ position: { x, y } });
  }

  markerItems() {
    return this.page.getByTestId('marker-item');
  }

  mapMarkers() {
    return this.page.getByTestId('map-marker');
  }

  /**
   * Waits until no marker shows Loading...; markers the geocoder could not name get `fallbackName(i)` typed in.
   * Returns the names shown, and how many had to be typed.
   */
  async waitForNames(fallbackName: (i: number) => string): Promise<{ names: string[]; typed: number }> {
    await this.page.waitForFunction(() => !document.querySelector('[data-testid="marker-list"]')?.textContent?.includes('Loading...'), undefined, {
      timeout: 30_000,
    });
    const items = this.markerItems();
    const n = await items.count();
    const names: string[] = [];
    let typed = 0;
    for (let i = 0; i < n; i++) {
      const item = items.nth(i);
      const input = item.getByRole('textbox');
      if ((await input.count()) > 0) {
        await input.fill(fallbackName(i));
        names.push(fallbackName(i));
        typed += 1;
      } else {
        names.push((await item.getByTestId('marker-name').innerText()).trim());
      }
    }
    return { names, typed };
  }

  /** The visible tab's wizard (both wizards stay mounted so switching tabs keeps their work). */
  activeWizard() {
    return this.page.locator('.crp-wizard:visible');
  }

  nextButton() {
    return this.activeWizard().locator('.crp-wizard-nav button').filter({ hasText: /^Next/ });
  }

  async next(): Promise<void> {
    await this.nextButton().click();
  }

  async fillDetails(name: string, optionalHazards: string[]): Promise<void> {
    await this.page.getByLabel('Portfolio Name').fill(name);
    for (const h of optionalHazards) await this.page.getByRole('checkbox', { name: h, exact: true }).check();
  }

  createButton() {
    return this.page.getByRole('button', { name: 'Create Portfolio' });
  }

  progress() {
    return this.page.getByTestId('analysis-progress');
  }

  /** Waits until the bar shows some progress (or the analysis is done), so a screenshot shows it moving. */
  async waitForSomeProgress(): Promise<void> {
    await this.page
      .waitForFunction(
        () => {
          const el = document.querySelector('[data-testid="analysis-progress"]');
          return !!el && (Number(el.getAttribute('data-percent')) > 0 || el.getAttribute('data-status') !== 'queued');
        },
        undefined,
        { timeout: 60_000 },
      )
      .catch(() => undefined);
  }

  async openCsvTab(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Multiple Asset CSV' }).click();
    await this.page.getByTestId('csv-wizard').waitFor();
  }

  async upload(file: string): Promise<void> {
    await this.page.getByTestId('csv-wizard').locator('input[type=file]').setInputFiles(file);
  }

  optionalDialog() {
    return this.page.getByRole('dialog', { name: 'Optional inputs' });
  }

  previewTable() {
    return this.page.getByTestId('preview-table');
  }

  /** The read-only preview of a large upload (data-rows: the counted rows, empty while counting). */
  largeUpload() {
    return this.page.getByTestId('large-upload').first();
  }

  async waitForLargeRows(rows: number): Promise<void> {
    await this.page.locator(`[data-testid="large-upload"][data-rows="${rows}"]`).first().waitFor({ timeout: 60_000 });
  }

  uploadProgress() {
    return this.page.getByTestId('upload-progress');
  }
}
