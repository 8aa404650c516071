import type { Page } from 'playwright-core';

/** /transition, /transition-analysis and /edit-transition: the carbon input table and the outputs. */
export class TransitionPages {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/transition`);
    await this.page.getByRole('heading', { name: 'Transition Risk' }).waitFor();
    await this.page.getByTestId('carbon-input-table').waitFor();
  }

  async setPortfolioValue(v: number): Promise<void> {
    const input = this.page.getByTestId('portfolio-value').first();
    await input.fill(String(v));
    await input.blur();
  }

  /** Types into a numeric or text cell of row i (0-based). */
  async setCell(field: string, row: number, value: string | number): Promise<void> {
    const cell = this.page.getByTestId(`cell-${field}-${row}`);
    await cell.fill(String(value));
    await cell.blur();
  }

  /** Chooses a region or sector in row i by typing its name. */
  async choose(field: 'region' | 'sector', row: number, value: string): Promise<void> {
    await this.page.getByRole('combobox', { name: `${field === 'region' ? 'Region' : 'Sector'} row ${row + 1}` }).click();
    await this.page.keyboard.type(value);
    await this.page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: value }).first().click();
  }

  async fillRow(
    row: number,
    r: { name: string; investment: number; marketCap: number; revenue: number; scope: number; region: string; sector: string },
  ): Promise<void> {
    await this.setCell('company_name', row, r.name);
    await this.setCell('investment_in_usd', row, r.investment);
    await this.setCell('market_cap_in_usd', row, r.marketCap);
    await this.setCell('revenue_in_usd', row, r.revenue);
    await this.setCell('scope_1_and_2_GHG_emission', row, r.scope);
    await this.choose('region', row, r.region);
    await this.choose('sector', row, r.sector);
  }

  async totalText(key: 'total' | 'footprint' | 'intensity' | 'waci' | 'scope'): Promise<string> {
    return (await this.page.getByTestId(`total-${key}`).locator('.ant-statistic-content').innerText()).trim();
  }

  outputRows() {
    return this.page.getByTestId('carbon-output-table').locator('tbody tr.ant-table-row');
  }
}
