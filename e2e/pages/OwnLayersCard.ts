import type { Page } from 'playwright-core';
import { DashboardPage } from './DashboardPage';

/** The "Own hazard layers" card on /setup (company administrators). */
export class OwnLayersCard {
  /** The dashboard page object's antd select helper (retries an option click that antd did not take). */
  private readonly selects: DashboardPage;

  constructor(private readonly page: Page) {
    this.selects = new DashboardPage(page);
  }

  card() {
    return this.page.getByTestId('own-layers');
  }

  async waitFor(): Promise<void> {
    await this.card().waitFor();
    await this.card().scrollIntoViewIfNeeded();
  }

  async choose(field: 'hazard' | 'scenario' | 'year' | 'rp' | 'unit', label: string): Promise<void> {
    await this.selects.selectOption(`own-layer-${field}`, label);
  }

  async fill(field: 'label' | 'source', text: string): Promise<void> {
    await this.page.getByTestId(`own-layer-${field}`).fill(text);
  }

  async chooseFile(name: string, data: Buffer): Promise<void> {
    await this.card().locator('input[type=file]').setInputFiles({ name, mimeType: 'image/tiff', buffer: data });
  }

  async submit(): Promise<void> {
    await this.page.getByTestId('own-layer-submit').click();
  }

  error() {
    return this.page.getByTestId('own-layer-error');
  }

  rows() {
    return this.page.getByTestId('own-layer-list').locator('tr.ant-table-row');
  }

  /**
   * Deletes a row through its confirmation. Under load a click on the confirmation's button while antd still animates
   * it in has been lost once (CI): the DELETE request is awaited, and the confirmation opened and clicked once more if
   * none was sent.
   */
  async deleteRow(text: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const sent = this.page.waitForRequest((r) => r.method() === 'DELETE' && r.url().includes('/api/v2/own_layers/'), { timeout: 10_000 });
      await this.rows().filter({ hasText: text }).getByTestId('own-layer-delete').click();
      await this.page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Delete' }).click();
      const ok = await sent.then(
        () => true,
        () => false,
      );
      if (ok) return;
      if (attempt >= 2) throw new Error(`no DELETE request after confirming the deletion of '${text}' twice`);
    }
  }
}
