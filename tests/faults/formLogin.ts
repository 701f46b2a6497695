/**
 * Logging in to the demo the way that keeps a session, for the fault tests. Not a test file.
 */
import request from 'supertest';
import type { DemoKernel } from '../../src/demo/app';

/** The `name=value` pairs of a response's `Set-Cookie` headers, as a `Cookie` header. */
function cookieOf(res: request.Response): string {
  return ((res.headers['set-cookie'] ?? []) as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
}

/**
 * The back office's form login, which keeps the user in a session (Basic and bearer logins are
 * stateless and store none): the login page's stateless CSRF cookie and token, then the POST.
 * @returns the POST's answer (302 and the session cookie when the session could be saved)
 */
export async function formLogin(kernel: DemoKernel, accept = 'text/html'): Promise<request.Response> {
  const page = await request(kernel).get('/admin/login').expect(200);
  const token = /name="_csrf_token" value="([0-9a-f]{64})"/.exec(page.text)![1];
  return request(kernel).post('/admin/login').type('form').set('Cookie', cookieOf(page)).set('Accept', accept)
    .set('Host', 'admin.example').set('Origin', 'http://admin.example')
    .send({ _username: 'admin', _password: 'admin', _csrf_token: token });
}
