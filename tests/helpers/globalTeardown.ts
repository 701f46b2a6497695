/** jest's globalTeardown: removes the run's temporary folder (tests/helpers/globalTemp.ts). */
import { teardown } from './globalTemp';

export default teardown;
