/** jest's globalSetup: the run's temporary folder (tests/helpers/globalTemp.ts). */
import { setup } from './globalTemp';

export default setup;
