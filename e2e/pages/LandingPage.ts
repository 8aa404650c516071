import type { Page } from 'playwright-core';

export class LandingPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/`);
    await this.page.getByRole('heading', { level: 1 }).waitFor();
  }

  heroHeading() {
    return this.page.getByRole('heading', { level: 1 });
  }

  async requestDemo(v: { name: string; email: string; company: string }): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Request a Demo' });
    await form.getByLabel('Name', { exact: true }).fill(v.name);
    await form.getByLabel('Work e-mail').fill(v.email);
    await form.getByLabel('Company', { exact: true }).fill(v.company);
    await form.getByRole('button', { name: 'Request a Demo' }).click();
    await this.page.getByTestId('demo-success').waitFor();
  }
}
