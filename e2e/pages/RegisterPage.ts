import type { Page } from 'playwright-core';

export interface NewUser {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  password: string;
  companyName: string;
}

export class RegisterPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/register`);
    await this.page.getByRole('heading', { name: 'Create Account' }).waitFor();
  }

  registerButton() {
    return this.page.getByRole('button', { name: 'Register' });
  }

  async fill(user: NewUser, confirmPassword = user.password): Promise<void> {
    const p = this.page;
    await p.getByLabel('First name').fill(user.firstName);
    await p.getByLabel('Last name').fill(user.lastName);
    await p.getByLabel('Username').fill(user.username);
    await p.getByLabel('Email').fill(user.email);
    await p.getByLabel('Password', { exact: true }).fill(user.password);
    await p.getByLabel('Confirm password').fill(confirmPassword);
    await p.getByLabel('Company name').fill(user.companyName);
  }

  async setConfirmPassword(value: string): Promise<void> {
    await this.page.getByLabel('Confirm password').fill(value);
  }

  mismatchMessage() {
    return this.page.getByText('Passwords do not match');
  }

  /** Submits and returns the company code shown after success. */
  async submit(): Promise<string> {
    await this.registerButton().click();
    const code = this.page.getByTestId('company-code');
    await code.waitFor();
    return (await code.innerText()).trim();
  }

  async goToLogin(): Promise<void> {
    await this.page.getByRole('link', { name: 'Go to Log In' }).click();
    await this.page.waitForURL('**/login');
  }
}
