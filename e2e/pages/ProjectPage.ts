import type { Page } from 'playwright-core';

/** /project: tabs, header and project cards. */
export class ProjectPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/project`);
    await this.waitForPage();
  }

  async waitForPage(): Promise<void> {
    await this.page.waitForURL('**/project');
    await this.page.getByRole('heading', { name: 'Projects' }).waitFor();
    await this.page
      .getByTestId('project-count')
      .filter({ hasText: /\d+ projects?/ })
      .waitFor();
  }

  card(name: string) {
    return this.page.locator(`[data-testid="project-card"][data-project="${name}"]`);
  }

  cards() {
    return this.page.getByTestId('project-card');
  }

  async waitForScore(name: string): Promise<void> {
    await this.card(name)
      .locator(
        '[data-testid="project-score"][data-level="low"], [data-testid="project-score"][data-level="medium"], [data-testid="project-score"][data-level="high"]',
      )
      .waitFor({ timeout: 60_000 });
  }

  modal(title: RegExp | string) {
    return this.page.locator('.ant-modal').filter({ has: this.page.locator('.ant-modal-title', { hasText: title }) });
  }
}
