import type { Page } from 'playwright-core';

export class LoginPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/login`);
    await this.waitForForm();
  }

  async waitForForm(): Promise<void> {
    await this.page.getByRole('heading', { name: 'Log In' }).waitFor();
  }

  async fill(v: { username: string; password: string; companyCode: string }): Promise<void> {
    await this.page.getByLabel('Username').fill(v.username);
    await this.page.getByLabel('Password').fill(v.password);
    await this.page.getByLabel('Company code').fill(v.companyCode);
  }

  /**
   * Not anchored at the start: after a request antd may keep the spinner icon (named "loading") in the button until
   * its exit animation ends, and the accessible name is then "loading Log In".
   */
  submitButton() {
    return this.page.getByRole('button', { name: /(^|\s)(Log In|Continue)$/ });
  }

  async submit(): Promise<void> {
    await this.submitButton().click();
  }

  codeField() {
    return this.page.getByLabel('2FA code');
  }

  async enterCode(code: string): Promise<void> {
    await this.codeField().fill(code);
    await this.page.getByRole('button', { name: 'Continue' }).click();
  }

  errors() {
    return this.page.getByTestId('login-errors');
  }
}
