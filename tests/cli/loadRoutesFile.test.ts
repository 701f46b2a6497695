/** `--routes config/routes.yaml`: the console commands read Symfony route files (YAML or JSON). */
import * as path from 'node:path';
import { debugRouter } from '../../src/cli/debugRouter';
import { isRoutesModuleError, loadRoutes } from '../../src/cli/loadRoutes';
import { routerMatch } from '../../src/cli/routerMatch';

const FIXTURE = path.join(__dirname, '..', 'routing', 'loader', 'fixtures', 'routes.yaml');

describe('loadRoutes(file) with a .yaml route file', () => {
  test('debug:router lists its routes with the controllers the file names', () => {
    const routes = loadRoutes(path.relative(process.cwd(), FIXTURE));
    const lines = debugRouter(routes, { showControllers: true }).output.split('\n');
    expect(lines[3]).toMatch(/^ {2}home +GET +ANY +ANY +\/ +App\\Controller\\AppController::home\(\) +$/);
    expect(lines.some((l) => /^ {2}about\.fr +ANY +ANY +ANY +\/a-propos /.test(l))).toBe(true);
  });

  test('router:match matches against it', () => {
    expect(routerMatch(loadRoutes(FIXTURE), '/boutique/cart').output).toContain('Route "cart.fr" matches');
  });

  test('a bad file is a RoutesModuleError carrying the loader\'s message', () => {
    try {
      loadRoutes(path.join(__dirname, 'nope.yml'));
      throw new Error('no error');
    } catch (error) {
      expect(isRoutesModuleError(error)).toBe(true);
      expect((error as Error).message).toMatch(/^Cannot load the routes file ".*nope\.yml": File ".*nope\.yml" not found\.$/);
    }
  });
});
