import type { Page } from 'playwright-core';

/** /realestate: Asset (map) and Multiple Asset CSV tabs, Create Project / Create Portfolio dialogs. */
export class RealEstatePage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(state?: unknown): Promise<void> {
    await this.page.goto(`${this.baseUrl}/realestate`);
    if (state !== undefined) {
      // Navigation state as the app hands it over (React Router keeps it in history.state.usr).
      await this.page.evaluate((usr) => {
        window.history.replaceState({ ...(window.history.state ?? {}), usr }, '');
      }, state);
      await this.page.reload();
    }
    await this.page.getByRole('heading', { name: 'Real Estate' }).waitFor();
  }

  async waitForMap(): Promise<void> {
    await this.page.locator('[data-testid="realestate-map"][data-loaded="true"]').waitFor({ timeout: 30_000 });
  }

  async clickMap(x: number, y: number): Promise<void> {
    await this.page.getByTestId('realestate-map').click({ position: { x, y } });
  }

  selectedRows() {
    return this.page.getByTestId('selected-asset-table').locator('tbody tr.ant-table-row');
  }

  async waitForNames(): Promise<void> {
    await this.page.waitForFunction(() => !document.querySelector('[data-testid="selected-asset-table"]')?.textContent?.includes('Loading...'), undefined, {
      timeout: 30_000,
    });
  }

  async tab(name: 'Asset' | 'Multiple Asset CSV'): Promise<void> {
    await this.page.getByRole('tab', { name, exact: true }).click();
  }

  async loadCsv(file: string): Promise<void> {
    await this.page.getByTestId('csv-picker').locator('input[type="file"]').setInputFiles(file);
  }

  allAssets() {
    return this.page.getByTestId('all-assets');
  }

  selectedAssets() {
    return this.page.getByTestId('selected-assets');
  }

  async createProject(name: string): Promise<void> {
    await this.page.getByTestId('open-create-project').click();
    const modal = this.page.getByTestId('create-project-modal');
    await modal.getByLabel('Project Name').fill(name);
    await modal.getByRole('button', { name: 'Submit' }).click();
  }
}
