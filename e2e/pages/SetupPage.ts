import type { Page } from 'playwright-core';

export const OVERRIDE_WARNING = 'This will override any existing 2FA setup. Do you want to continue?';

export class SetupPage {
  constructor(private readonly page: Page) {}

  async waitForPage(): Promise<void> {
    await this.page.waitForURL('**/setup');
    await this.page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
  }

  async chooseMethod(method: 'app' | 'email'): Promise<void> {
    await this.page.getByRole('radio', { name: method === 'app' ? /Authenticator app/ : /E-mail code/ }).check();
  }

  async startSetup(): Promise<void> {
    await this.page.getByRole('button', { name: /^Set up/ }).click();
  }

  overrideDialog() {
    return this.page.getByRole('dialog').filter({ hasText: OVERRIDE_WARNING });
  }

  async confirmOverride(): Promise<void> {
    await this.overrideDialog().getByRole('button', { name: 'Continue' }).click();
  }

  verifyDialog() {
    return this.page.getByRole('dialog').filter({ has: this.page.getByRole('button', { name: 'Verify Setup' }) });
  }

  async readSecret(): Promise<string> {
    const secret = this.page.getByTestId('totp-secret');
    await secret.waitFor();
    return (await secret.innerText()).replace(/\s+/g, '');
  }

  async verify(code: string): Promise<void> {
    await this.verifyDialog().getByLabel('Verification code').fill(code);
    await this.verifyDialog().getByRole('button', { name: 'Verify Setup' }).click();
  }

  /** With 2FA on, the verify dialog also asks for the password and a code of the method in force (issue 21). */
  confirmIdentity() {
    return this.page.getByTestId('confirm-identity');
  }

  turnOffDialog() {
    return this.page.getByRole('dialog').filter({ has: this.page.getByRole('button', { name: 'Turn off 2FA' }) });
  }

  /** The id of the focused element (keyboard checks). */
  focusedId(): Promise<string> {
    return this.page.evaluate(() => document.activeElement?.id ?? '');
  }

  /**
   * Presses Tab until the input `id` has the focus (at most `maxStops` presses) and returns the stops passed on the
   * way (the password's show/hide toggle is one). Throws when the input is not reached.
   */
  async tabTo(id: string, maxStops = 2): Promise<string[]> {
    const passed: string[] = [];
    for (let i = 0; i < maxStops; i++) {
      await this.page.keyboard.press('Tab');
      if ((await this.focusedId()) === id) return passed;
      passed.push(
        await this.page.evaluate(() => {
          const el = document.activeElement;
          return el ? `${el.tagName.toLowerCase()}[${el.getAttribute('aria-label') ?? el.className}]` : 'none';
        }),
      );
    }
    throw new Error(`Tab did not reach #${id}; stops: ${passed.join(', ')}`);
  }
}
