import type { Locator, Page } from 'playwright-core';

/** /dashboard: Advanced Filters, summary, charts, maps, asset table and the Asset Analysis modal. */
export class DashboardPage {
  constructor(private readonly page: Page) {}

  root() {
    return this.page.getByTestId('dashboard');
  }

  /** Waits until the dashboard shows data and no request is in flight. */
  async waitForLoaded(): Promise<void> {
    await this.page.waitForURL(/\/dashboard(\?|$)/);
    await this.page.locator('[data-testid="dashboard"][data-loading="false"][data-pending="false"]').waitFor({ timeout: 120_000 });
  }

  subtitle() {
    return this.page.getByTestId('dashboard-subtitle');
  }

  section(id: string) {
    return this.page.getByTestId(`section-${id}`);
  }

  /** Waits until no select dropdown is open or closing (antd animates them out). */
  private async noOpenDropdown(): Promise<void> {
    const open = this.page.locator('.ant-select-dropdown:visible');
    for (let i = 0; i < 50 && (await open.count()) > 0; i += 1) await this.page.waitForTimeout(100);
  }

  /**
   * Opens a select's dropdown. A click that lands while the filter panel re-renders after Apply is sometimes not taken
   * (seen in full runs only): then the click is repeated, and the keyboard (ArrowDown on the focused select) tried.
   */
  private async openDropdown(testId: string): Promise<void> {
    const open = () =>
      this.page
        .locator('.ant-select-dropdown:visible')
        .first()
        .waitFor({ timeout: 2_000 })
        .then(
          () => true,
          () => false,
        );
    const select = this.page.getByTestId(testId);
    for (let attempt = 0; attempt < 3; attempt++) {
      await select.click();
      if (await open()) return;
      await select.locator('input').first().focus();
      await this.page.keyboard.press('ArrowDown');
      if (await open()) return;
    }
    await this.page.screenshot({ path: 'test-output/screenshots/dashboard-select-not-opening.png' });
    throw new Error(`the select ${testId} did not open its dropdown after 3 clicks and ArrowDown`);
  }

  /**
   * antd renders a long option list virtually, scrolled to the current value: an option far from it (All, when Hotel
   * is chosen) may not be in the page. A searchable select is filtered by typing the label; otherwise the list is
   * walked from the top until the option is rendered.
   */
  private async revealOption(testId: string, option: Locator, label: string): Promise<void> {
    if (
      await option.waitFor({ timeout: 2_000 }).then(
        () => true,
        () => false,
      )
    )
      return;
    const search = this.page.getByTestId(testId).locator('input').first();
    if (await search.isEditable()) {
      await search.fill(label);
      if (
        await option.waitFor({ timeout: 2_000 }).then(
          () => true,
          () => false,
        )
      )
        return;
    }
    const holder = this.page.locator('.ant-select-dropdown:visible .rc-virtual-list-holder');
    if ((await holder.count()) > 0) {
      for (let top = 0; top < 20_000; top += 128) {
        await holder.first().evaluate((el, y) => el.scrollTo(0, y), top);
        if (
          await option.waitFor({ timeout: 300 }).then(
            () => true,
            () => false,
          )
        )
          return;
      }
    }
    await option.waitFor();
  }

  async selectOption(testId: string, label: string): Promise<void> {
    const option = this.page.locator('.ant-select-dropdown:visible .ant-select-item-option', {
      hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    });
    // An option clicked while antd still animates the dropdown in is sometimes not taken: one more try, then fail.
    for (let attempt = 1; ; attempt++) {
      await this.noOpenDropdown();
      await this.openDropdown(testId);
      await this.revealOption(testId, option, label);
      await option.click();
      const chosen = this.page.getByTestId(testId).filter({ hasText: label });
      if (
        await chosen.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => false,
        )
      )
        return;
      // The click was not taken (seen in full runs: the option stays highlighted, the value unchanged): the highlighted
      // option is the active one, so Enter selects it the way a keyboard user would.
      if (await option.isVisible()) {
        await option.hover();
        await this.page.keyboard.press('Enter');
        if (
          await chosen.waitFor({ timeout: 5_000 }).then(
            () => true,
            () => false,
          )
        )
          return;
      }
      if (attempt >= 2) await chosen.waitFor({ timeout: 20_000 });
      if (attempt >= 2) return;
      await this.page.keyboard.press('Escape');
    }
  }

  async setAnalysis(type: 'RCP' | 'SSP'): Promise<void> {
    await this.page.getByTestId('filter-analysis').getByText(type, { exact: true }).click();
  }

  async apply(): Promise<void> {
    await this.page.getByTestId('filter-apply').click();
    await this.waitForLoaded();
  }

  async setUnit(label: 'Financial' | 'Percentage'): Promise<void> {
    await this.page.getByTestId('toggle-unit').getByText(label, { exact: true }).click();
  }

  /** The option texts of a select (opens it, reads, closes it). */
  async optionsOf(testId: string): Promise<string[]> {
    // A dropdown opened while the page re-renders (the filters are written to the URL just after a change) can close
    // under the reader; read again (at most three times) rather than return an empty list.
    let texts: string[] = [];
    for (let attempt = 0; attempt < 3 && texts.length === 0; attempt++) {
      await this.noOpenDropdown();
      await this.page.getByTestId(testId).click();
      await this.page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().waitFor();
      await this.page.waitForTimeout(300); // let the opening animation finish
      texts = await this.page.locator('.ant-select-dropdown:visible .ant-select-item-option').allInnerTexts();
      await this.page.keyboard.press('Escape');
      await this.noOpenDropdown();
    }
    return texts;
  }

  adaptationSwitch() {
    return this.page.getByTestId('toggle-adaptation');
  }

  table() {
    return this.page.getByTestId('asset-table');
  }

  row(name: string) {
    return this.table().locator(`tr.ant-table-row[data-name="${name}"]`);
  }

  async openAsset(name: string): Promise<void> {
    await this.row(name).getByTestId('open-asset').click();
    await this.page.getByTestId('asset-modal').waitFor();
  }
}
