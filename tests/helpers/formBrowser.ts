import request from 'supertest';
import type { Express } from 'express';

/** The session cookie's name (the session layer's default). */
export const SESSION_COOKIE = 'EKSESSID';

/** The `EKSESSID=…` pair of a response's Set-Cookie, or undefined. */
export function sessionCookie(res: request.Response): string | undefined {
  const list = (res.headers['set-cookie'] ?? []) as unknown as string[];
  return list.map((c) => c.split(';')[0]).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
}

/** What the test login page shows (a token page may show `csrf` only). */
export interface LoginPage {
  error: string | null;
  lastUsername: string;
  csrf: string;
  user: string | null;
}

/**
 * A browser for form logins over real HTTP (supertest): keeps the session cookie between
 * requests, reads the CSRF token from a page that prints `{ csrf }` as JSON, posts forms.
 */
export class Browser {
  cookie: string | undefined;
  /**
   * @param kernel - the application
   * @param tokenPage - a page answering JSON with `csrf` (the session's token) @default '/admin/login'
   */
  constructor(readonly kernel: Express, readonly tokenPage = '/admin/login') {}

  private keep(res: request.Response): request.Response {
    this.cookie = sessionCookie(res) ?? this.cookie;
    return res;
  }

  async get(url: string, accept = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8'): Promise<request.Response> {
    const req = request(this.kernel).get(url).set('Accept', accept);
    return this.keep(await (this.cookie === undefined ? req : req.set('Cookie', this.cookie)));
  }

  async post(url: string, form: Record<string, string | string[]>): Promise<request.Response> {
    const req = request(this.kernel).post(url).type('form').set('Accept', 'text/html');
    return this.keep(await (this.cookie === undefined ? req : req.set('Cookie', this.cookie)).send(form));
  }

  async loginPage(): Promise<LoginPage> {
    const res = await this.get(this.tokenPage, 'application/json');
    expect(res.status).toBe(200);
    return res.body as LoginPage;
  }

  /** Opens the login page, then posts the form with its CSRF token (and `extra` fields). */
  async login(username: string, password: string, extra: Record<string, string> = {}): Promise<request.Response> {
    const { csrf } = await this.loginPage();
    return this.post('/admin/login', { _username: username, _password: password, _csrf_token: csrf, ...extra });
  }

  /** The session's data (without its cookie), or null without a session. */
  async session(): Promise<Record<string, unknown> | null> {
    return (await this.get('/probe', 'application/json')).body as Record<string, unknown> | null;
  }
}
